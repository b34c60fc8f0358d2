
BYJ’MÍS$LxÔ’MÍS:LwÔMÎS-LwÔ