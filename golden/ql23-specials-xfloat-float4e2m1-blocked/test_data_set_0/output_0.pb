ByJ
wwÿÿwwÿÿww