
BYJ ХѕR¤N&WХЫRNNW(ХбRЉNW