
Bx_scaleJ€5