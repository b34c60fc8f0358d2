ByJ
S1S1SS1