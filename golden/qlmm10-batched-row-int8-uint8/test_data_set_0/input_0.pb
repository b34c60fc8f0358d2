BaJzYŒª‰€b
}ˆîs}0ZŠðu¶{tguy|·x„‰z°rw~]ŒŒ6Šº-.Ôw¬ƒ3Î„|tsqäOîK‰ŠyC‚>JŒJVZvtJIusNäúqƒŒvê|œõs¦;qs?dmzß†usÑxŒ#ôà°Œæ‡U³vÌ‰Æž ‹ÿmB^su‹