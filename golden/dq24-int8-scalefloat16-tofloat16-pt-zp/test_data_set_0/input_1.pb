
Bx_scaleJ€C