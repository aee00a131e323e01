package h

func mark() {}

func prepare() {
	mark() // want `unknown: no loop or per-item code of the package calls it`
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
	mark() // want `unknown: no loop or per-item code of the package calls it`
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

// A flag.Value's Set runs when flags or configuration are parsed.
type level int

func (l *level) Set(s string) error {
	mark() // want `unknown: a method other packages may call through an interface: how often is not known`
	return nil
}

func (l *level) String() string { return "" }

// HandlerFor builds a handler: it is not one.
func HandlerFor(name string) {
	mark() // want `unknown: exported: how often its callers run it is not known`
}

// A setter of a value that is not a flag's runs per item.
type cache struct{}

func (c *cache) Set(key string, v int) {
	mark() // want `per-item: method Set runs per item`
}
