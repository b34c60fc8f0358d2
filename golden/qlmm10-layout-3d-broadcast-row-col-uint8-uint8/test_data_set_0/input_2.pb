Ba_zero_pointJÚk%
ûp