
BYJ>ÍWzÐ5VÂÍõVÌÐJV
ÍW:Ð@V