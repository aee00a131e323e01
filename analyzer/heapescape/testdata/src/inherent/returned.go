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

// newNode and (*node).grow call each other: the compiler analyses them
// together, and its flow of newNode's variable goes on past the return
// into grow, which passes it on. The message says both.
//
//go:noinline
func newNode(id, depth int) *node {
	n := node{id: id} // want `variable n is moved to heap because newNode returns it and \(\*node\).grow passes it on at returned.go:\d+; inherent: it is the value the function returns, and a caller keeps it`
	if depth > 0 {
		n.grow(depth - 1)
	}
	return &n
}

type node struct {
	id   int
	kids map[int]*node
}

var nodes []*node

//go:noinline
func addNode(n *node) { nodes = append(nodes, n) } // want `append\(nodes, n\) escapes to heap because append grows it`

func (n *node) grow(depth int) {
	addNode(newNode(n.id+1, depth))
}

// newLeaf and (*node).sprout call each other; sprout, inlined into
// newLeaf, stores the leaf in a map: the compiler's step is in newLeaf's
// body, in the caller's code inlined there.
//
//go:noinline
func newLeaf(id, depth int) *node {
	l := node{id: id} // want `variable l is moved to heap because newLeaf returns it and a caller inlined at returned.go:\d+ stores it; inherent: .*`
	if depth > 0 {
		l.sprout(depth - 1)
	}
	return &l
}

var leaves = map[int]*node{} // want `map\[int\]\*node{} escapes to heap because it is stored in leaves`

func (n *node) sprout(depth int) {
	leaves[n.id] = newLeaf(n.id+1, depth)
}

// Trees grows them per item.
func Trees(ids []int) {
	for _, id := range ids {
		newNode(id, 2)
		newLeaf(id, 2)
	}
}
