BYJ0ãZëF¿l*ÇC¡6G³YôÆã¡»ÆÒCGà%Ç»vÂFcšqDûV¹ÄÊƒˆFò
E