ByJ
wvxövyòy