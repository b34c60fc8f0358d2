Bx_scaleJg
æ<