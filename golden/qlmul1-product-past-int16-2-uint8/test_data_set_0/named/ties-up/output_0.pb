ÄBCJÄÇÇÅÅÄÄ~~}}}||{{{zzyyxxwvvuuuttstsqqpoppoonnlllkljlijjgjijhfhgcgffcd``abaabb`aa^Z`Z^XX]]ZW[WUVXSXTSTPQWVQRPTORNKNQJNMOPLHHNDGGLDKGGDBD@EDC@F=A=<C:==C:A7=@A@59?<<4260020343055-081)22-1+0(*&&+,&&&(* -($#%)*$(#!$#'%$  # 
	
