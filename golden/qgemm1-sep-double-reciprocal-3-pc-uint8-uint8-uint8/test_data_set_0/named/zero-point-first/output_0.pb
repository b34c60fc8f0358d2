
BYJ$$44PPRRTTŒŒŽŽ’’