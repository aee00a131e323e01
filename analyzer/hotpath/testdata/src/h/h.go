package h

func mark() {}

func setup() {
	mark() // want `cold`
}

func loops(n int) {
	for i := 0; i < n; i++ {
		mark() // want `hot-loop: inside a loop`
	}
	for range n {
		func() {
			mark() // want `hot-loop: inside a loop`
		}()
	}
	mark() // want `cold`
	helper()
}

func helper() {
	mark() // want `per-item: called in a loop in loops`
}

func loopsCallHelper(n int) {
	for range n {
		helper()
		deeper()
	}
}

func deeper() { deepest() }

func deepest() {
	mark() // want `per-item: called from deeper, which runs per item`
}

type Reader struct{}

func (r *Reader) Next() {
	mark() // want `per-item: method Next runs per item`
	parse()
}

func parse() {
	mark() // want `per-item: called from \(\*Reader\).Next, which runs per item`
}

func HandleLogin() {
	mark() // want `per-item: function HandleLogin runs per item`
}

var _ = func() int {
	mark() // want `cold`
	return 0
}()
