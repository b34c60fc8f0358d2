
Bx_scaleJ€B