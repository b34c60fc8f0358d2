
BYJxÒXÌ>VÂTèÓ`Æ.VJTˆÐXMâVìP