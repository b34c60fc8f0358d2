
BxJÔNÐK,OPÈðLÀÃ D N