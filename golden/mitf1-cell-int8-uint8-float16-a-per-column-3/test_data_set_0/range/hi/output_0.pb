
BYJ0PVEV\K8S!W@ÖjÎtLŸV(VµL	R`W¼ÖÜÍÎR¡VQVÈK¹S8WXÖªÎO