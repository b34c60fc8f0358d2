
BYJ{kO×FbÐeöfLî#ñ›ó4c›ë¨î