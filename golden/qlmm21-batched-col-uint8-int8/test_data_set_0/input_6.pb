By_scaleJ
žÕ>