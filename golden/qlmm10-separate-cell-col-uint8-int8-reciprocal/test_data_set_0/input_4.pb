Bb_scaleJk
<;<