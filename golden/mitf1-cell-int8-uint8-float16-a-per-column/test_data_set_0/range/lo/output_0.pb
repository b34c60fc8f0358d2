
BYJ#’¶’bUUVÚ‘ã‘VWVÏ‘v’ÜVgV