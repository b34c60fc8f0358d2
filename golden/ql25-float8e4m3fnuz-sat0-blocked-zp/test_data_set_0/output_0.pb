ByJ
sфьшxьewА