module example.com/benchlib

go 1.24
