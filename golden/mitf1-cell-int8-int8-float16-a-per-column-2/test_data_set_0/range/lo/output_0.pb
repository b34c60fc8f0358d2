
BYJ*U›S>ÓôUÿÕÄÖWÛT‘SÒ»U9ÖòÖfV2UÆSAÔ(VUÕ|Ö"X