ByJ
סכrzüתwzqy