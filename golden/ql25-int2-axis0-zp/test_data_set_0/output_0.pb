ByJm
