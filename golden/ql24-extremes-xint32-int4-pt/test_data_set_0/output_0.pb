
ByJwwˆˆx