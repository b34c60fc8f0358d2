
BYJ,ืW๗Uดิ]ืฃVÞU๘ิTืvVัUๆิ