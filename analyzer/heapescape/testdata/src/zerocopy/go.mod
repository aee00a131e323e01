module zerocopy

go 1.26
