module advice

go 1.26
