module memreader

go 1.26
