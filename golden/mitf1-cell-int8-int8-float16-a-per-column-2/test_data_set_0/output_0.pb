
BYJ*U£S>ÓôUÿÕÄÖWàT—SÒ»U9ÖòÖfV6UÍSAÔ(VUÕ|Ö&X