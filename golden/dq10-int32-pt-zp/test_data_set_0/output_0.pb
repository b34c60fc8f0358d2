ByJ$hMÉY
Í…}­MÔÔëÍ'ŞŸÍj¨~ÍÓeÏMuNLxYaM