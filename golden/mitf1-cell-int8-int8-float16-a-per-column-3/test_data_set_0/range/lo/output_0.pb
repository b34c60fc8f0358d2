
BYJ0ะOüอaIฺีS่ึÝQnะเO#ิดGฮึ–Sจึ_R€ะRึ#HZี€QึS