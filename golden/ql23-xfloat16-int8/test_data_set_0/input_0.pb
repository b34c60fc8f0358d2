
BxJ^PPK¬NxÎ8ÎÚÐJ˜N