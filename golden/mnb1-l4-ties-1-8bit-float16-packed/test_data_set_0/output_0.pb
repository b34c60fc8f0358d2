
BYJ¢hH>]ÐÔR_]ôÔuU]Õ)J•ÜÛÐ~LÜÜÏèM‰ÜÎ0ÜHØ{e‚ÜLØxeÔÜQØueh°QœUhšPzU÷gOXU-ØFMÁÚ!Ø|NžÚØ²OzÚeÌP`Z'e Q4[5etQ\OfèUrHbf4V¨ÁnfgVRÉWÖ‡Ê0M%ÖëÈOóÕžÆ~P	bŠÕPUÞaÉÕ¨QCb6ÕPX