Bb_scaleJ
çΩ<