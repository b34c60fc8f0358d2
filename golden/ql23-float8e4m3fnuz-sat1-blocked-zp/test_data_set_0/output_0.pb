ByJ
yяямъtxr~я