&BYJLגגטטךךעעפפצצררתת

446688::<<>>@@BBDDFFHHJJLLNNPPRRTTVVXXZZ