module fixes

go 1.26
