BYJ0êZëFºl*ÇH¡6G¬YôÆÝ¡»ÆÖCGÛ%ÇÁvÂFkšqDõV¹ÄÎƒˆFö
E