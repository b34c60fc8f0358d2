BxJ¨‡_×€‚dÒŽsŽnh´‰jxu‹ƒîvŠE¿vvsvœçß4…x}{WZR…BuàéÏ£v÷uqî„‚öÿrRqò:{˜#¦s‚tŽ‰uë‚Œ|~—„x3ru¢€³lwwv
sxJ4'ûx&ƒrqqrÌ‘t+1r¹„½„„Ës´/¨Ž‚Šk<ƒ7X}Pòs„Öu´ŠuŒ|ƒ†Ž]