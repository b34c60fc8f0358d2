BYJ0çZëF½l*ÇE¡6G¯YôÆà¡»ÆÔCGÝ%Ç¾vÂFgšqDøV¹ÄÌƒˆFô
E