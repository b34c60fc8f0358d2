ByJ
|эrъбеorjъ