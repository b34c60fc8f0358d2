
By_scaleJ€/