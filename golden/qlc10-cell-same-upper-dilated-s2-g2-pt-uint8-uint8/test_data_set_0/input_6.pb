By_scaleJ– 
?