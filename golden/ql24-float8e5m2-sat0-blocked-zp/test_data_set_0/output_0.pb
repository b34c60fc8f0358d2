ByJ
osÔyòüuôüü