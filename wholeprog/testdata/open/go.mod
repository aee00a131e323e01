module example.com/open

go 1.26
