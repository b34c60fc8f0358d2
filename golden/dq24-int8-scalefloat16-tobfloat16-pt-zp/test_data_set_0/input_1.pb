
Bx_scaleJ€.