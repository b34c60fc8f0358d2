
BYJ¢pÉG æ!¼ÌH7æØFœIHæNÒ0Ð¿g,ÓÑ¹gÔåÑ²g›aUÙEWQaÅÙwWaÚœWvÏ <¶dGÐÐÁ¬dÓÐØÆ£d^pÌY8^È¼XQ^Á¸tXaUÙAW¹aÅÙ†WØaÚºWÑ2SÊT%Ð„S4R1ÓvRKXÞØ˜Þ°×µØŸÞ¼ÕŒØ¦ÞÓ,ãö[²ÒUã3\8Ótã_\ Ó