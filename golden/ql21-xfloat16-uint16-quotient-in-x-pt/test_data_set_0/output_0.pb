ByJ`aÁ#¿A	e
çgéIKRRW[eiin r"w$e(e,n0w4‰8‰<’@›D¥H7P7XI`[hnp’x’€¥ˆ·IŸn¯n¿’Ï·ßÛï