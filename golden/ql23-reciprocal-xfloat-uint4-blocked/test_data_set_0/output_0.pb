ByJ
d:Ê3SSu%