
BYJôÎSX“I†ÕHÏ6X¡I|Õ$Ê*WdK~Ö