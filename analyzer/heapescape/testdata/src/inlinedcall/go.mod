module inlinedcall

go 1.26
