ByJ
S1S1BE„@