
BYJ*U«S>ÓôUÿÕÄÖWäTSÒ»U9ÖòÖfV;UÔSAÔ(VUÕ|Ö)X