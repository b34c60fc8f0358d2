
BYJ%%55QQSSUU‘‘““