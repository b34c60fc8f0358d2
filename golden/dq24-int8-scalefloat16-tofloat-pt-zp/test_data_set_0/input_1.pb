
Bx_scaleJ€4