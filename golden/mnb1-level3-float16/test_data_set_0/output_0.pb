
BYJhD"ÄdB¼CiFÀ2<h0