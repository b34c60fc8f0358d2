
BYJ’¶’bUbVÊ‘ã‘VdV‚‘v’ÜVrV