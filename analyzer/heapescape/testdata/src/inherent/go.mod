module inherent

go 1.26
