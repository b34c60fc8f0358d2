ByJ
B B BB 