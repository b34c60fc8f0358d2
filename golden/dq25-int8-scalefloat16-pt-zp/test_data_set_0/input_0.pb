BxJi£hó
a