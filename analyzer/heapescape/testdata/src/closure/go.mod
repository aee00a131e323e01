module closure

go 1.26
