
BYJe@pCh>—À-§&%B1Fc?