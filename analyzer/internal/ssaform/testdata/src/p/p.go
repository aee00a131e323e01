package p

var table = build()

func build() []int { return []int{1, 2, 3} } // want `build: SSA of the package's own code`

func Sum() int { // want `Sum: SSA of the package's own code`
	s := 0
	for _, v := range table {
		s += v
	}
	return s
}
