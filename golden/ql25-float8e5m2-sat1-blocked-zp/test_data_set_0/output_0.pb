ByJ
σ{rσσzσzw{