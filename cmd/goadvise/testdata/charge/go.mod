module example.com/charge

go 1.26
