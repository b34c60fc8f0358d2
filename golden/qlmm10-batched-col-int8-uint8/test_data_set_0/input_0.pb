BaJ‚v}‚ë~rxx¬ˆè‚uŸ‹}à2HqâäƒVË¬0z8òŽ­9}¦r5tŠøüø(zqrvZp¥Šr„suÎ~t“pz'qq–ƒˆ€5w¿yevž°„|Q—‰m†ˆv|ŸrfŽy–}Öbts‰wq
‚†Šp…uˆrrs2„Š] N|wŒ~ŒÓH¾
“