BYJ¢ŒA
ÄÎD@	ÄÍDWÁÄËD}@©ÄFD=¿¬ÄGD2A¥ÄED›BkDWÃÇBhD_ÃÊArDFÃcD¸BìÃhD‘BìÃlDgBìÃ…B!C•DˆBC’D~BiCDwÄÏC/ÂwÄÈC"ÂwÄÀCÂ`DiÄÝÁaDdÄ2A_DpÄ¶ÂZC/DÇÂYC1D‡Â]C+D-ÃtÄJÄ/ÂlÄNÄUÂfÄQÄqÂ