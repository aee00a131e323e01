module hot

go 1.26
