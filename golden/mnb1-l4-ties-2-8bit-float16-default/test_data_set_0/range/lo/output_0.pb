
BYJ¢ôÙºë¬g\Ý¥ë®gDß—ë¯gðÏ*ìŽspOgìs´U¤ì’swÜàâg¨ÝÒâÁgœÞÈâñgôiæ\ýc¼iÖX%dHjo`‰cœëðeÿà»ëäf#áÚëØgGáˆkÜÜõé¦kyÜÿé¼k+ÜênècàGnicüQ÷mVdÓ—ëðeöà‹ëìdlã§ëgØ[iÑd4â„iÊd¯âiÚdtá