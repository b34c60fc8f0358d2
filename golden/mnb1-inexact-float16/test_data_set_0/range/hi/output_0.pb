
BYJH๕ล=ฟEyฟN;หรK@บD