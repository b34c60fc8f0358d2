
BxJ`[§]Í_õagh²iÄjkFlýl´mkn"oÚopHqÿq¶rms$tÛt’uIvÛ§ÝÍßõáçè²éÄêëFìýì´íkî"ïÚïðHñÿñ¶òmó$ôÛô’õIö