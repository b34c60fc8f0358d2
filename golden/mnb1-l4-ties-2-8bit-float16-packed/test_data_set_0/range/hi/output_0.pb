
BYJ¢P]—tðÝè^¬tÞ@`Ât&Þ(ÔmßmNYúÞÕl›]¡Þ³lSp` Jþo`€Ðìo`kßø][è1ßÿÉTèöÞXÞMèFb<Jt˜cÐÏKt”^™TGtêc]ôà*d_Ð|àRdÝà¯lî‡Û¬leîÚ©l·î¢Ø*àÖø]ÉáØcHÚÀÓ<àjwlÀÁj/l¤Q+jÍkÒU