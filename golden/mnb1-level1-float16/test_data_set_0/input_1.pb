
BbiasJì5ì5ì5