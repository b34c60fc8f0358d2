Bb_scaleJ
†ß<