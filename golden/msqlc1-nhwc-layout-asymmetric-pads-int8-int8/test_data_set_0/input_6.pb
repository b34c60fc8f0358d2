By_scaleJç„
?