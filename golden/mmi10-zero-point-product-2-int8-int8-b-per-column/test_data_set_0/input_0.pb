BAJ©ÏOj†8Uq5(
C›2z