module hotcold

go 1.26
