
BYJ’¶’bU\VÏ‘ã‘V^VÁ‘v’ÜVlV