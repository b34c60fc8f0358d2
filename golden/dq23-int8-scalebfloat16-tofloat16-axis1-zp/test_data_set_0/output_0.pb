
ByJbxPVÐ¦à¸Ë’Ð