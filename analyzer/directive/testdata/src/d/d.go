package d

func f() {
	bad() // want `bad call`
	bad() //goadvise:ignore flagbad measured: cold path
	bad() //goadvise:ignore other reason // want `bad call`
	//goadvise:ignore flagbad
	bad()
	bad() //nolint:goadvise
	bad() //nolint:flagbad,errcheck
	bad() //nolint
	bad() //nolint:errcheck // want `bad call`
	bad() // goadvise:ignored is not a directive // want `bad call`
}

// g is all ignored.
//
//goadvise:ignore all generated-like code
func g() {
	bad()
	bad()
}

//nolint:goadvise
func h() {
	bad()
}

func bad() {}
