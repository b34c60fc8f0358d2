
BYJ€kD×KbÔe˜öfHî ñ–ó9c–ë£î