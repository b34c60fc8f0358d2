By_zero_pointJãO>[K
^zúÊ