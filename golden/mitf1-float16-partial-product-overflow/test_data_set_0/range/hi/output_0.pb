
BYJ†k9×Pb×e”ö	fCîñó>c‘ëŸî