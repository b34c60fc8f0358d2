
BxJ0ÈPJÍJMÀÐ¿Ð¾Ð½ÐeÏdÏcÏbÏKÍIÍHÍbÊaÊ`Ê_Ê[ÄZÄYÄXÄXDYD