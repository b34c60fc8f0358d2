ByJ
S1S1D%j 