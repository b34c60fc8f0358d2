
BYJЁS$Ч@R,R°SІХ|Q”S¤TФХTQиQ