BYJ¢~EÒFHÇ0EÖFDÇéDÙF@Ç>Ä§ÆŠÇ„Ã¦ÆŽÇiC¤Æ‘Ç›Ã“FîEÄ•FF5CŽF¦E!GpÅ
Ç#G•ÅÇGÙÄÇžÄþBÏÇ”Ä¶ÃÍÇ¹Ä™DÕÇñÅ~ÃEÆìÅhBTÆçÅ¹CdÆNF4Ç~DZF5ÇøD/F0Ç˜ÄMFwE•ÆRFmE¥ÆXFbEµÆ›Ã“FîEÂFÄE5CŽF¦E