ByJ0}/
ãfL~(]tBKYG3A=)ú"Ê^Lguo&XD	op3>9