-BCJ-
 "$&2468:<>@BDF\^`bdfhjlnprtvxz|~€‚„