
BYJFÕ½’F>AF2IEAßCœB