
BxJ`[Ò\%^y_Ï`b9gãgŒh5iİi†j k‘klrlãlTmÆm7n§no‰oúokpÛpLq½q/rŸrssòsctÓtDuµu&v˜vwywêw[xÌx<y­yzz