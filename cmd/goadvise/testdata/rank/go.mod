module example.com/rank

go 1.26
