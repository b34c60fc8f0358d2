
BYJUMvТС ЧќMEТдРћЧoM`ТС©Ч