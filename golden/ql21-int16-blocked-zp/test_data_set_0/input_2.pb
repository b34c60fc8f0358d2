By_zero_pointJŠÜ
Ûö.ğ@M