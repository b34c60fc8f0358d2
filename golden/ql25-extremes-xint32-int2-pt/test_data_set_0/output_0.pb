
ByJUª