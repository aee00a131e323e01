module growth

go 1.26
