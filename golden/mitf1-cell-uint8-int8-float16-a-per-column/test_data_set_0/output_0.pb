
BYJQW>WPÆ†P`VrW@FJQVxW€Å