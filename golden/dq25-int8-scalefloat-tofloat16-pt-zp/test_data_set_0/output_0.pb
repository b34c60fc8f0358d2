
ByJÀJØN T€ST2T