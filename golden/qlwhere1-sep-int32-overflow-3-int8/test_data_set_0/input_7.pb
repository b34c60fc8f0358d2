Bz_scaleJ
‰/