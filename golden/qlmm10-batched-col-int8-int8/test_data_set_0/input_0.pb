BaJ‹GpÉ‚–{º‰p‡¿|ˆ‹G‚Žyü~Ûy‚¤‡~Øs…‹wõyxrbp»ƒy…~x(‚EŠ}}$}ÎŠ~kr
zvÎ~zÏƒè|‹öqwÆ¾ûŽÆHbx{ˆuä}pyeXpyX…|y@qˆxŽŽ	0}ƒk„ß<ò…›s%SxY5µpi{TL3ðyˆ