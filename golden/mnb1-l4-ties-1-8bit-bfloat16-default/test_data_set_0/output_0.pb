BYJ¢AÄÑD0@ÄÐDHÁÄÎD›@§ÄID
¿©ÄJDAA£ÄHD¦BoDTÃÒBkD[ÃÚAvDCÃgDÀBèÃlD•BèÃpDpBèÃˆB$C—DŠBC”D‚BqC DsÄÓC,ÂsÄËCÂsÄÄCÂdDfÄÝÁdDaÄ—AcDmÄ³Â^C2D·Â]C4DnÂ`C-D+ÃpÄFÄ(ÂhÄKÄQÂbÄNÄmÂ