Bx_scaleJ
P7=