
BYJ0?V7V\K8S
WTÖ}ÎtLVVµL	RLWÎÖìÍÎRVCVœK¹S!WmÖ¾ÎO