
BYJêÎXX›I†Õ?Ï;XªI|Õ$Ê4WkK~Ö