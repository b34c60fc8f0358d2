ByJrŠÎJvY‘—Ej¨¤ÿ
t5Y˜
