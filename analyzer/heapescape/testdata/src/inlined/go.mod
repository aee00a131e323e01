module inlined

go 1.26
