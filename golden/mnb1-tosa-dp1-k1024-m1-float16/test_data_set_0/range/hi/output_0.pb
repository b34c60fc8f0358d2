
BYJ ûLuMnLßL.MåL#M˜L«L¨L	M·LÜL¨L£LßL