
ByJ€Q€U€SðX0ÚÀU