
BYJNM—×=U<MM§×±UMM¢×æU