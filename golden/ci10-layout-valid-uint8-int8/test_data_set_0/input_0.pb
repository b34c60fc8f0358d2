BxJ<?W„SAlŽáYL%tÃÁnuPIñÆPƒ„olš› ¹?#þ{ió¯;÷
ZfœÖ,FH\ë©T„