module rare

go 1.26
