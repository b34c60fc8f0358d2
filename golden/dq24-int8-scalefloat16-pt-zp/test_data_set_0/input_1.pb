
Bx_scaleJ€,