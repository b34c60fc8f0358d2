BY_scaleJ
‰/