
BYJ0¸TDÕTVœR`ÃÌÎ”Ô¨TzÕ¾SúU¹SÀÃ|Ò¬Ô†TDÕ(UV„R€6`ÑmÔ