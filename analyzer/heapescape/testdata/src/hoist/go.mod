module hoist

go 1.26
