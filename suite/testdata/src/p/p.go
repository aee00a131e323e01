package p

func F() {}
