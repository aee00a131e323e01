module example.com/decoder

go 1.26
