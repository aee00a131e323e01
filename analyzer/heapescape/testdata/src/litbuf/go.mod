module litbuf

go 1.26
