ByJ
wwˆˆwwˆˆww