
BYJV¼TÀTÄÖbVäT´TÑÖV˜TÌTÊÖ