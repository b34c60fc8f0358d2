ByJ
úqyuzuvvùû