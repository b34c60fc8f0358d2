Bx_zero_pointJÌ
