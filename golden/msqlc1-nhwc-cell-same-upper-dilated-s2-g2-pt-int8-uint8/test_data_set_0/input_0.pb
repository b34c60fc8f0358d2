BxJ¨‡}u+_{ë1×W‚r€ZŒ¹R|„‚…~dB½u—„Òà„Žé„sxŽÏ3Ën£shvr´´÷u/‰¢¨j€Žxu³‚ulŠ‹qwkƒîw<îvv„
ƒŠ‚s7öxXEJ¿ÿ4}vr'PûòRxsvq&„sòƒÖv:uœ{r´˜qŠç#qu¦Œßsr|4‚ƒ…tÌ†xŽ‘Ž‰t]