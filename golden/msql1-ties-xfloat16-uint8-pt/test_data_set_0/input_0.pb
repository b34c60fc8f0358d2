
BxJ0îÕžÔœÒøÏpÉpIøOœRžTúUïÕíÕŸÔÔÒ›ÒùÏ÷ÏqÉoÉoIqI÷OùO