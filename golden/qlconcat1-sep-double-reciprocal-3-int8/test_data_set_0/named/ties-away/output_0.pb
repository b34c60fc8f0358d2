BYJאזטעפצר
:<>@BDFHJLNPRTVX