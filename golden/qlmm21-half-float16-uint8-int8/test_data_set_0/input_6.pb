
By_scaleJÐ4