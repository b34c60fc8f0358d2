
BYJ*pV%OW,×5×R]QøU0O1WøÖ/×\QFQºU\O0WÞÖ>×˜QLQ