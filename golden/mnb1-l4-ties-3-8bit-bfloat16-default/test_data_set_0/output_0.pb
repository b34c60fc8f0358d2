BYJ¢†EÖFEÇ5EÚF@ÇõDÜF=ÇÄ¤ÆˆÇÃ£Æ‹Ç²C¢ÆÇ˜Ã•FöEÄ—F
FkC‘F«E#GlÅÇ&G“ÅÇG¼ÄÇœÄCÌÇ‘Ä°ÃÉÇ¶Ä¨DÒÇíÅ0ÃBÆèÅCQÆãÅàC`ÆQF1ÇD^F2ÇE3F.Ç‘ÄPF{E“ÆVFqE¢Æ\FfE²Æ˜Ã•FöE˜A’FÉEkC‘F«E