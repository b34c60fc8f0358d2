
BYJlÔ@IüÏsÔrÔüIÐFÔpÔJ¦ÏMÔ