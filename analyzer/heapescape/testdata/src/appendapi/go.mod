module appendapi

go 1.26
