
BYJÌLˆÌÈÐNT¼L`ÐˆÐThLèÌìÐ.T