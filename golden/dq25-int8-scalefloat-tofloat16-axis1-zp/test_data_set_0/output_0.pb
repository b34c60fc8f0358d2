
ByJ0N0ÚZ¨NFY°È