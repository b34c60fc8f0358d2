
ByJbÛæDTU¶Ü–ÅFÚ