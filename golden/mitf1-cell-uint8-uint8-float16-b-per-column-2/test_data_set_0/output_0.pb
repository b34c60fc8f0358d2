
BYJµÕüQ€BlR	ÖnTäU>U÷ÕNTÐMÜQ