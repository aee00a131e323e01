package opt

// Settings has an exported field, which other packages can set: not
// reported.
type Settings struct {
	Limit *int
	name  string
}

//go:noinline
func (s *Settings) setLimit(n int) {
	s.Limit = &n
}

// peer's fields are each used in a way the fix cannot rewrite.
type peer struct {
	quota *int
	level *int
	limit *int
	mark  *int
	step  *int
	lost  *int
	buf   []byte
}

//go:noinline
func use(p *int) int { return *p }

//go:noinline
func (p *peer) setQuota(n int) { // want `field peer.quota holds an optional int by pointer, so storing &n in it allocates n on the heap \(the compiler: moved to heap: n\); storing the int itself would avoid it, but no automatic fix: the pointer is passed to use at neg.go:\d+ \[per-item: called in a loop in Use\]`
	p.quota = &n
}

//go:noinline
func (p *peer) setLevel(n int) { // want `field peer.level .* but no automatic fix: the value is written through the pointer at neg.go:\d+`
	p.level = &n
}

//go:noinline
func (p *peer) setLimit(n int) { // want `field peer.limit .* but no automatic fix: n is assigned at neg.go:\d+ after its address is stored`
	p.limit = &n
	n++
}

//go:noinline
func (p *peer) setMark(n int) { // want `field peer.mark .* but no automatic fix: the address of the field is taken at neg.go:\d+`
	p.mark = &n
}

//go:noinline
func (p *peer) steps(xs []int) {
	n := 0 // want `field peer.step .* but no automatic fix: n is assigned at neg.go:\d+ in a loop that also stores its address`
	for _, x := range xs {
		n = x
		p.step = &n
	}
}

// onStack's struct stays on the stack, and so does n: not reported.
func onStack(n int) int {
	var p peer
	p.lost = &n
	return *p.lost
}

// knobs is converted to an interface.
type knobs struct{ depth *int }

//go:noinline
func (o *knobs) setDepth(d int) { // want `field knobs.depth .* but no automatic fix: a value holding knobs is converted to any at neg.go:\d+, where reflection could see the field`
	o.depth = &d
}

// Knobs is exported and comparable.
type Knobs struct{ width *int }

//go:noinline
func (o *Knobs) setWidth(w int) { // want `field Knobs.width .* but no automatic fix: Knobs is exported and comparable, so other packages could compare its values`
	o.width = &w
}

func (o *Knobs) Width() int {
	if o.width == nil {
		return 0
	}
	return *o.width
}

func Use(xs []int) int {
	t := 0
	for _, x := range xs {
		p := &peer{}
		p.setQuota(x)
		t += use(p.quota)
		p.setLevel(x)
		*p.level = 3
		t += *p.level
		p.setLimit(x)
		t += *p.limit
		p.setMark(x)
		q := &p.mark
		t += **q
		p.steps(xs)
		t += *p.step
		s := &Settings{}
		s.setLimit(x)
		t += *s.Limit
		t += onStack(x)
		o := &knobs{}
		o.setDepth(x)
		sink = o
		w := &Knobs{}
		w.setWidth(x)
		t += w.Width()
	}
	return t
}
