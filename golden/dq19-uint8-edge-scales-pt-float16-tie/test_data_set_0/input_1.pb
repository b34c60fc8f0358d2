
Bx_scaleJ<