BxJ<?oWl„š› S¹A?l#Žþá{YiLó¯%;t÷Ã
ÁZnfuœPÖI,ñFÆH\Pë©ƒT„„