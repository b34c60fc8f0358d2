
BxJ0€@ HÍğÌğyïxïwïvïWíVíUíTíhêgêeêFäEäCäCdEdFdejgjhj