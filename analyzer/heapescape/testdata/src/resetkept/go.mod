module resetkept

go 1.26
