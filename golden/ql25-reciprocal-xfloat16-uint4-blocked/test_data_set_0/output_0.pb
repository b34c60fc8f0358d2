ByJ
U1Y1Bf F