
BYJVÍÔT×QVBÍ$UÑQ.VNÍ2TºQ