package o

import "sync"

func mark() {}

var table = buildTable()

// buildTable runs once, at start-up: its loop too.
func buildTable() []int {
	t := make([]int, 256)
	for range t {
		mark() // want `cold: runs once: called only from a package-level initialiser`
	}
	return t
}

// handler is a function value: it runs whenever it is called.
var handler = func(n int) {
	for range n {
		mark() // want `hot-loop: inside a loop`
	}
}

var names map[string]bool

func init() {
	for i := range 10 {
		mark() // want `cold: runs once: in init`
		register(i)
	}
	// A goroutine started in init may loop for the whole run.
	go func() {
		for {
			mark() // want `hot-loop: inside a loop`
		}
	}()
	// A callback registered in init runs later, per call.
	handle(func(n int) {
		for range n {
			mark() // want `hot-loop: inside a loop`
		}
	})
}

func register(int) {
	mark() // want `cold: runs once: called only from init`
}

func handle(func(int)) {}

var (
	once   sync.Once
	config = sync.OnceValue(func() int {
		for range 3 {
			mark() // want `cold: runs once: in a sync.Once body`
		}
		return 0
	})
)

type Reader struct{}

func (r *Reader) Read(p []byte) (int, error) {
	once.Do(func() {
		for range p {
			mark() // want `cold: runs once: in a sync.Once body`
		}
	})
	once.Do(loadNames)
	mark() // want `per-item: method Read runs per item`
	processItem(p)
	return 0, nil
}

func loadNames() {
	for range 3 {
		mark() // want `cold: runs once: called only from a sync.Once`
	}
}

// processRecord is named like per-item work, but only tests call it.
func processRecord(p []byte) {
	for range p {
		mark() // want `cold: runs once: called only from tests`
	}
}

// processItem is called by tests and by Read.
func processItem(p []byte) {
	for range p {
		mark() // want `hot-loop: inside a loop`
	}
	mark() // want `per-item: called from \(\*Reader\).Read, which runs per item`
}
