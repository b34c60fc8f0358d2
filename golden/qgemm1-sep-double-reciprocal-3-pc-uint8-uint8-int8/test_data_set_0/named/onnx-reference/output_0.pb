
BYJΤΤάάμμ

DDFFHHJJ