BC_scaleJ
‰/