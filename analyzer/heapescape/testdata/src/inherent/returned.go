package inherent

// A function that returns the address of its variable makes it what the
// function returns only when the compiler's flow says the return is why
// it is on the heap. When a go statement, a closure or a function that
// keeps it captures it first, the message gives that reason.

type worker struct{ n int }

func (w *worker) loop() { w.n++ }

// startWorker's variable is captured by the go statement's closure.
//
//go:noinline
func startWorker(n int) *worker {
	w := worker{n: n} // want `variable w is moved to heap because it is captured by a closure that outlives the call; no known rewrite: .*`
	go w.loop()
	return &w
}

var onDone func()

// watchWorker's variable is captured by a closure kept in a
// package-level variable.
//
//go:noinline
func watchWorker(n int) *worker {
	w := worker{n: n}           // want `variable w is moved to heap because it is captured by a closure that outlives the call; no known rewrite: .*`
	onDone = func() { w.n = 0 } // want `func literal escapes to heap because it is stored in onDone and outlives the call`
	return &w
}

var registered []*worker

//go:noinline
func register(w *worker) { registered = append(registered, w) } // want `append\(registered, w\) escapes to heap because append grows it`

// enrolWorker's variable is passed to a function that keeps it.
//
//go:noinline
func enrolWorker(n int) *worker {
	var w worker // want `variable w is moved to heap because its address is passed to register, which lets it escape.*`
	w.n = n
	register(&w)
	return &w
}

// newWorker only returns its variable's address: that is why.
//
//go:noinline
func newWorker(n int) *worker {
	w := worker{n: n} // want `variable w is moved to heap because newWorker returns it; inherent: it is the value the function returns`
	return &w
}

// Workers runs them all per item.
func Workers(ns []int) (t int) {
	for _, n := range ns {
		t += startWorker(n).n + watchWorker(n).n + enrolWorker(n).n + newWorker(n).n
	}
	return t
}
