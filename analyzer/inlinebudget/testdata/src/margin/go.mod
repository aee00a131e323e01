module margin

go 1.26
