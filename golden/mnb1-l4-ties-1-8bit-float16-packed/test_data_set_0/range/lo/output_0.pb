
BYJўј6]ТФИPV]цФШTw]ХtI—ЬС$L’Ь)РЋMЊЬxО2ЬJШxe…ЬOШueЧЬSШreh¬Q™U	h–PwUуgяNUU0ШшLКЪ$Ш.N§ЪШdOѓЪe·P+Z#eQяZ1e_QУ[LfеUрF_f'VЁБkfZVRЙcЦоК¶L1ЦRЙњNяХlЗAPb”ХжTЫaМХЁQ;b@ХX