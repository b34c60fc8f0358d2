By_scaleJ
‰/