
Bx_scaleJ€$