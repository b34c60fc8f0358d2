
Bx_scaleJ€3