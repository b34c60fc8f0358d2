
BYJ0ะOüอaIฺีSึึÝQnะเO#ิดGฮึงSจึnR€ะRึ#HZี“Qvึ'S