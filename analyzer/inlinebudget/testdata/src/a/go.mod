module a

go 1.26
