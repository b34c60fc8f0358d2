ByJ
S1S1UœU•A