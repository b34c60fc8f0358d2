
BYJ0ะOüอaIฺีS฿ึÝQnะเO#ิดGฮึSจึfR€ะRึ#HZีQ€ึS