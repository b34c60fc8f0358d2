
Bx_scaleJ€-