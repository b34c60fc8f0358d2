Bb_scaleJ
î.<