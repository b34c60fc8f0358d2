BYJ╒yDEд┴C┼D:д┐C8D]д≤CёC╜EфдD╛E╣д█ц╟EЯдEуF▐дEяF┴дEоF┘д╗д╜юE╪д`бEйдабEbечCDе`е)DHе_еcDKе"E≤F]д&E·FfдE▒FPде1дБBе8д▌Bе!дSCFяE
D┌FпE.D└FоERD#E F`дE√FTдE⌠FLд