module lazy

go 1.26
