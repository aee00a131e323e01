module cover

go 1.26
