
BYJ5w4ïX÷8o