ByJ
ρxuμω||bul