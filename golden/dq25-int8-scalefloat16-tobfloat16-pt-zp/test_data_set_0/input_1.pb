
Bx_scaleJ€%