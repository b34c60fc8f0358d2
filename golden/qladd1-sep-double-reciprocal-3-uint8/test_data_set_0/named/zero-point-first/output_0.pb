/BCJ/
 "$&02468:<>@BDFZ\^`bdfhjlnprtvxz|~€‚„