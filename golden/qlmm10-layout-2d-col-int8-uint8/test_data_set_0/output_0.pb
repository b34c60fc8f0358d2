ByJ,egd[9W`
Ef