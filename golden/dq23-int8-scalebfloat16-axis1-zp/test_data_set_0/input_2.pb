Bx_zero_pointJ3õ
