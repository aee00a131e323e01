package flags

// By default (without -nilfacts), err == nil is not used.
func wrap(err error) error {
	if err != nil {
		return err
	}
	return nil
}

// With -mergecases=false, cases are not merged.
func sw(x int) int {
	switch x {
	case 1:
		return 10
	case 2:
		return 10
	}
	return 0
}

// Other findings are still made.
func identical(c bool, x int) int {
	if c { // want `both branches of this if do the same thing`
		x++
	} else {
		x++
	}
	return x
}
