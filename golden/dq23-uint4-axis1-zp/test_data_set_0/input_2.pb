Bx_zero_pointJî
