module autotmp

go 1.26
