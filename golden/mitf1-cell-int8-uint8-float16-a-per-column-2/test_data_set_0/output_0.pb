
BYJ*pV%OW%Ч.ЧRbQшU0O9WсЦ(Ч\QKQєU\O6WЮЦ8ЧQPQ