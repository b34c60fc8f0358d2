Bw_scaleJ§al=À;K=Úm‘<ı
‘<