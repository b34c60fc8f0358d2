BYJ M	MMMMMM
MMMMMM M	MM