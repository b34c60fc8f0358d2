ByJ
ыtzpушsyыъ