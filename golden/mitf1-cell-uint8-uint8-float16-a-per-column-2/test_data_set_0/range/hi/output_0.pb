
BYJ*XVpP‹TщХBVјW™Ф†VРМeU~УTPU‘ФhV4MєTљХдUWљФ