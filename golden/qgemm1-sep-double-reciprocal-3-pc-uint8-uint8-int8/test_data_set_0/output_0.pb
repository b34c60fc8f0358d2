
BYJееннээ		EEGGIIKK