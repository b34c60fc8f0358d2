
BYJQ*Qjо╒WQ╣Q.н╗WQАQRндW