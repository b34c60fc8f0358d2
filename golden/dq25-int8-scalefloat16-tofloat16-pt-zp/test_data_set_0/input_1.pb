
Bx_scaleJ€9