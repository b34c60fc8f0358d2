
BYJ¢hH@]ÆÔRa]êÔuU‚]Õ)J“ÜØÐLÜÕÏìM‡ÜúÍÜFØ~enÜJØ{eÀÜNØxehõQ¥UhßPƒUÿg’OaU+ØHM¾ÚØNšÚØµOvÚeÏPdZ)e#Q8[8ewQ\RfõUrHef7VÿºrfjVXÈTÖÊ2M!ÖåÈOïÕÆ€Pb‡ÕPUåa¾Õ|RFb3ÕPX