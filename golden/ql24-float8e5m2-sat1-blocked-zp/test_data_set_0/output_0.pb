ByJ
sхtzу{ымev