BYJ¢œÂ
EjB³ÂETBvÂ	E„BB…CtÃ2B…CqÃSB„CmÃ«B]ÃE—BXÃEÛBgÃECÂëBC7ÁïBCÃçB”Ã/A´Ã”ÃØ@²Ã”Ã&@°Ã¯B_ÃE¤BUÃE¿BnÃEFC•ÃŸ@AC“Ãž?;C‘ÃÀëÃ/Ã¦AëÃ0ÃLAêÃ0ÃÓ@ D‹ÃöC!DÃDD‚ÃÆC