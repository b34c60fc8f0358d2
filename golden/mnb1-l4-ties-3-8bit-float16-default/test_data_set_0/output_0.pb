
BYJҐudс„vafснv&hырw{`љv>тZџv`т:dХvт№мHуќщwмуµщўн≠уъrцbhжqL^.h¬qP’Zh:сnNp сќn#p\сmЗpдмaу”щLнуџщСн»тащ–и1рб>ир∞Ў>кxрPзоfJp:д‘fp8еЇfѕo6жNфМwсgфwwrсАфcw’с