By_scaleJ
F>