
BYJ*pV%O'WЧ&ЧRhQшU0O@WкЦ Ч\QQQєU\O=WЮЦ2ЧQUQ