module kinds

go 1.26
