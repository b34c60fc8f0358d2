
BYJ0HV>V\K8SWJÖtÎtL˜V"VµL	RVWÅÖäÍÎR˜VJV²K¹S,WbÖ´ÎO