module kinds112

go 1.12
