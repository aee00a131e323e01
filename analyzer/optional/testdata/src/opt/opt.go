package opt

var sink any

type span struct{ lo, hi int }

// conn's optional settings are set from parameters and locals.
type conn struct {
	name     string
	timeout  *int // milliseconds
	retries  *int
	deadline *int64
	window   *span
	buf      []byte
}

// setTimeout stores a parameter's address; the field is tested for nil.
//
//go:noinline
func (c *conn) setTimeout(ms int) { // want `field conn.timeout holds an optional int by pointer, so storing &ms in it allocates ms on the heap \(the compiler: moved to heap: ms\); store the int itself with a bool hasTimeout that says it is set, which removes 1 allocation per assignment \[per-item: called in a loop in Serve\]`
	c.timeout = &ms
}

// setRetries stores a parameter's address; nothing tests it for nil.
//
//go:noinline
func (c *conn) setRetries(n int) { // want `field conn.retries holds an optional int by pointer, .*; nothing compares it with nil: store the int itself, which removes 1 allocation per assignment \[per-item: .*\]`
	c.retries = &n
}

// setWindow stores a local's address.
//
//go:noinline
func (c *conn) setWindow(lo, hi int) {
	w := span{lo, hi} // want `field conn.window holds an optional span by pointer, .*moved to heap: w\); store the span itself with a bool hasWindow that says it is set`
	if hi < lo {
		w.lo, w.hi = hi, lo
	}
	c.window = &w
}

// newConn sets the deadline in a literal.
//
//go:noinline
func newConn(name string, d int64) *conn { // want `field conn.deadline holds an optional int64 by pointer, .*moved to heap: d\); store the int64 itself with a bool hasDeadline`
	return &conn{name: name, deadline: &d}
}

//go:noinline
func (c *conn) reset() {
	c.timeout = nil
	c.window = nil
	c.deadline = nil
}

//go:noinline
func (c *conn) wait() int {
	t := 0
	if c.timeout != nil {
		t = *c.timeout
	}
	if c.window == nil || (*c.window).lo > 3 {
		t++
	} else {
		t += c.window.hi - c.window.lo
	}
	if c.deadline != nil && *c.deadline > 10 {
		t++
	}
	return t + *c.retries
}

// Serve is the hot path.
func Serve(xs []int) int {
	t := 0
	for i, x := range xs {
		c := newConn("c", int64(x))
		c.setTimeout(x)
		c.setRetries(i)
		c.setWindow(i, x)
		t += c.wait()
		c.reset()
		t += c.wait()
	}
	return t
}

// A Tracker's setter is small enough to be inlined, in other packages too,
// where the compiler's decision for its body stands.
type Tracker struct {
	seen *int
	buf  []byte
}

func (t *Tracker) Set(n int) { // want `field Tracker.seen holds an optional int by pointer, .*moved to heap: n\); store the int itself with a bool hasSeen that says it is set, .*\[per-item: method Set runs per item\]`
	t.seen = &n
}

func (t *Tracker) Seen() int {
	if t.seen == nil {
		return 0
	}
	return *t.seen
}

// gauge's setter is inlined in its callers: where the struct escapes, the
// inlined copy's local is moved to the heap.
type gauge struct {
	level *float64
	name  string
}

func (g *gauge) setLevel(v float64) { // want `field gauge.level holds an optional float64 by pointer, .*moved to heap: v\); nothing compares it with nil: store the float64 itself`
	g.level = &v
}

//go:noinline
func observe(g *gauge, vs []float64) float64 {
	t := 0.0
	for _, v := range vs {
		g.setLevel(v)
		t += *g.level
	}
	return t
}

// An endpoint's flag cannot be hasPort, a name the package uses.
type endpoint struct {
	port *int
	name string
}

func hasPort(e *endpoint) bool { return e.name != "" }

//go:noinline
func (e *endpoint) setPort(p int) { // want `field endpoint.port holds .* store the int itself with a bool hasPort2 that says it is set`
	e.port = &p
}

func Dial(ps []int) int {
	t := 0
	for _, p := range ps {
		e := &endpoint{name: "e"}
		e.setPort(p)
		if e.port != nil && hasPort(e) {
			t += *e.port
		}
	}
	return t
}
