// Package lazymap holds a table with maps that index its entries, as a
// header compression table does: both a decoder and an encoder keep one,
// but only the encoder's methods search it.
package lazymap

import "io"

type entry struct{ name, value string }

type pair struct{ name, value string }

// table is a list of entries, indexed by name and by name and value.
type table struct {
	ents    []entry
	evicted uint64
	byName  map[string]uint64
	byPair  map[pair]uint64
}

// init makes the indexes. It runs only on a new table (its one call is
// in a constructor), so there is no earlier map to clear and reuse: its
// own allocations are inherent there.
func (t *table) init() {
	t.byName = make(map[string]uint64) // inherent: not reported by default
	t.byPair = make(map[pair]uint64)   // inherent: not reported by default
}

// add keeps the indexes up to date.
func (t *table) add(e entry) {
	id := uint64(len(t.ents)) + t.evicted + 1
	t.byName[e.name] = id
	t.byPair[pair{e.name, e.value}] = id
	t.ents = append(t.ents, e)
}

// evict reads the indexes only to decide whether to delete from them.
func (t *table) evict(n int) {
	for k := 0; k < n; k++ {
		e := t.ents[k]
		id := t.evicted + uint64(k) + 1
		if t.byName[e.name] == id {
			delete(t.byName, e.name)
		}
		if p := (pair{e.name, e.value}); t.byPair[p] == id {
			delete(t.byPair, p)
		}
	}
	t.ents = t.ents[n:]
	t.evicted += uint64(n)
}

// search is the one query of the indexes.
func (t *table) search(e entry) (uint64, bool) {
	if id := t.byPair[pair{e.name, e.value}]; id != 0 {
		return id - t.evicted, true
	}
	if id := t.byName[e.name]; id != 0 {
		return id - t.evicted, false
	}
	return 0, false
}

// at returns the entry at index i, counting from the newest.
func (t *table) at(i uint64) entry {
	return t.ents[uint64(len(t.ents))-i]
}

// dynTable bounds a table by its size.
type dynTable struct {
	table   table
	size    int
	maxSize int
}

func (dt *dynTable) add(e entry) {
	dt.table.add(e)
	dt.size += len(e.name) + len(e.value)
	dt.shrink()
}

func (dt *dynTable) shrink() {
	n := 0
	for dt.size > dt.maxSize && n < len(dt.table.ents) {
		dt.size -= len(dt.table.ents[n].name) + len(dt.table.ents[n].value)
		n++
	}
	dt.table.evict(n)
}

// Decoder adds the entries it decodes and looks them up by index only.
type Decoder struct {
	dyn  dynTable
	emit func(name, value string)
}

// NewDecoder makes the decoder's indexes, which no method of Decoder
// queries.
func NewDecoder(maxSize int, emit func(name, value string)) *Decoder {
	d := &Decoder{emit: emit}
	d.dyn.table.init() // want `make\(map\[string\]uint64\) escapes to heap because it is stored in t\.byName; the maps t\.byName and t\.byPair made here` `calling \(\*table\)\.init allocates \(inlined\): make\(map\[pair\]uint64\) escapes to heap because it is stored in t\.byPair; the maps t\.byName and t\.byPair made here are only queried by \(\*table\)\.search, which no method of Decoder reaches: make them when \(\*table\)\.search first needs them, skipping their upkeep in \(\*table\)\.add and \(\*table\)\.evict while they are nil, which saves the allocations for every Decoder; no automatic fix: making the maps lazily changes their upkeep, which is left to the author`
	d.dyn.maxSize = maxSize
	return d
}

// Decode adds a literal entry, or emits the one at index i.
func (d *Decoder) Decode(i uint64, name, value string) {
	if i == 0 {
		d.dyn.add(entry{name, value})
		d.emit(name, value)
		return
	}
	e := d.dyn.table.at(i)
	d.emit(e.name, e.value)
}

// Encoder searches its table for each field it writes.
type Encoder struct {
	dyn dynTable
	w   io.Writer
	buf []byte
}

// NewEncoder makes the encoder's indexes, which its methods query.
func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{w: w}
	e.dyn.table.init() // inherent: not reported by default
	e.dyn.maxSize = 4096
	return e
}

// WriteField writes the index of a field the table has, or the field.
func (e *Encoder) WriteField(name, value string) error {
	e.buf = e.buf[:0]
	if i, ok := e.dyn.table.search(entry{name, value}); ok {
		e.buf = append(e.buf, byte(i))
	} else {
		e.buf = append(e.buf, 0)
		e.buf = append(e.buf, name...)
		e.buf = append(e.buf, value...)
		e.dyn.add(entry{name, value})
	}
	_, err := e.w.Write(e.buf)
	return err
}

// Peeker queries its table only in a function of the package that takes
// a Peeker, which no method of Peeker calls.
type Peeker struct {
	dyn dynTable
}

func NewPeeker() *Peeker {
	p := &Peeker{}
	p.dyn.table.init() // inherent: not reported by default
	return p
}

func (p *Peeker) Add(name, value string) { p.dyn.add(entry{name, value}) }

func Has(p *Peeker, name string) bool {
	_, ok := p.dyn.table.search(entry{name: name})
	return ok
}

// finder is how a Finder looks entries up.
type finder interface {
	find(e entry) bool
}

func (t *table) find(e entry) bool {
	_, ok := t.search(e)
	return ok
}

// Finder calls an interface method that a method querying a table
// implements: it may query its own.
type Finder struct {
	dyn dynTable
	f   finder
}

var shared table

var sharedFinder finder = &shared

func NewFinder() *Finder {
	f := &Finder{f: sharedFinder}
	f.dyn.table.init() // inherent: not reported by default
	return f
}

func (f *Finder) Has(name string) bool { return f.f.find(entry{name: name}) }

// counts counts names; drop reads the count to decide more than the
// index's upkeep.
type counts struct {
	byName map[string]int
	n      int
}

func (c *counts) add(name string) {
	c.byName[name]++
	c.n++
}

func (c *counts) drop(name string) {
	if c.byName[name] > 0 {
		delete(c.byName, name)
		c.n--
	}
}

func (c *counts) get(name string) int { return c.byName[name] }

// Counter adds and drops names, which reads their counts.
type Counter struct{ c counts }

func NewCounter() *Counter {
	x := &Counter{}
	x.c.byName = make(map[string]int) // inherent: not reported by default
	return x
}

func (x *Counter) Add(name string)  { x.c.add(name) }
func (x *Counter) Drop(name string) { x.c.drop(name) }

// Tally gets the counts.
type Tally struct{ c counts }

func NewTally() *Tally {
	t := &Tally{}
	t.c.byName = make(map[string]int) // inherent: not reported by default
	return t
}

func (t *Tally) Add(name string)     { t.c.add(name) }
func (t *Tally) Get(name string) int { return t.c.get(name) }

// index numbers names.
type index struct {
	byName map[string]int
	names  []string
}

func (x *index) add(name string) {
	x.byName[name] = len(x.names)
	x.names = append(x.names, name)
}

func (x *index) lookup(name string) int { return x.byName[name] }

// NameList lists names and never looks one up.
type NameList struct{ idx index }

func NewNameList() *NameList {
	l := &NameList{}
	l.idx.byName = make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because .*; the map l\.idx\.byName made here is only queried by \(\*index\)\.lookup, which no method of NameList reaches: make it when \(\*index\)\.lookup first needs it, skipping its upkeep in \(\*index\)\.add while it is nil, which saves the allocation for every NameList; no automatic fix: making the map lazily changes its upkeep, which is left to the author`
	return l
}

func (l *NameList) Add(name string) { l.idx.add(name) }

// NameIndex looks names up.
type NameIndex struct{ idx index }

func NewNameIndex() *NameIndex {
	x := &NameIndex{}
	x.idx.byName = make(map[string]int) // inherent: not reported by default
	return x
}

func (x *NameIndex) Add(name string)     { x.idx.add(name) }
func (x *NameIndex) Pos(name string) int { return x.idx.lookup(name) }

// Names is a NameList made with one literal.
type Names struct {
	idx index
	max int
}

func NewNames(max int) *Names {
	return &Names{max: max, idx: index{byName: make(map[string]int)}} // want `make\(map\[string\]int\) escapes to heap because .*; the map idx\.byName made here is only queried by \(\*index\)\.lookup, which no method of Names reaches: make it when \(\*index\)\.lookup first needs it, skipping its upkeep in \(\*index\)\.add while it is nil, which saves the allocation for every Names; no automatic fix`
}

func (n *Names) Add(name string) {
	if len(n.idx.names) < n.max {
		n.idx.add(name)
	}
}

// NamesIndex is a NameIndex made with one literal.
type NamesIndex struct{ idx index }

func NewNamesIndex() *NamesIndex {
	x := &NamesIndex{idx: index{byName: make(map[string]int)}} // inherent: not reported by default
	return x
}

func (x *NamesIndex) Add(name string)     { x.idx.add(name) }
func (x *NamesIndex) Pos(name string) int { return x.idx.lookup(name) }

// set is a generic index: its methods select the fields of their own
// instance of it, which are the fields of the generic type.
type set[K comparable] struct {
	has  map[K]bool
	keys []K
}

func (s *set[K]) add(k K) {
	s.has[k] = true
	s.keys = append(s.keys, k)
}

func (s *set[K]) contains(k K) bool { return s.has[k] }

// Keys lists keys, which a Set looks up.
type Keys[K comparable] struct{ s set[K] }

func NewKeys() *Keys[string] {
	x := &Keys[string]{}
	x.s.has = make(map[string]bool) // want `make\(map\[string\]bool\) escapes to heap because .*; the map x\.s\.has made here is only queried by \(\*set\[K\]\)\.contains, which no method of Keys reaches: .*`
	return x
}

func (x *Keys[K]) Add(k K) { x.s.add(k) }

// Set looks its keys up.
type Set[K comparable] struct{ s set[K] }

func NewSet() *Set[string] {
	x := &Set[string]{}
	x.s.has = make(map[string]bool) // inherent: not reported by default
	return x
}

func (x *Set[K]) Add(k K)      { x.s.add(k) }
func (x *Set[K]) Has(k K) bool { return x.s.contains(k) }
func (x *Set[K]) Len() int     { return len(x.s.keys) }

// Bag is looked up by a generic function taking any instance of it.
type Bag[K comparable] struct{ s set[K] }

func NewBag() *Bag[string] {
	b := &Bag[string]{}
	b.s.has = make(map[string]bool) // inherent: not reported by default
	return b
}

func (b *Bag[K]) Add(k K) { b.s.add(k) }

func BagHas[K comparable](b *Bag[K], k K) bool { return b.s.contains(k) }

// Mirror hands its table out to a looker, which searches it.
type Mirror struct{ tab table }

type looker struct{ t *table }

func NewMirror() *Mirror {
	m := &Mirror{}
	m.tab.init() // inherent: not reported by default
	return m
}

func (m *Mirror) Add(name string)      { m.tab.add(entry{name: name}) }
func (m *Mirror) Looker() *looker      { return &looker{t: &m.tab} }
func (l *looker) Has(name string) bool { _, ok := l.t.search(entry{name: name}); return ok }

// ring lists the names it has seen; its register method lets it out.
type ring struct {
	seen  map[string]bool
	names []string
}

var rings []*ring

func (r *ring) register() { rings = append(rings, r) }

func (r *ring) add(name string) {
	r.seen[name] = true
	r.names = append(r.names, name)
}

func SeenAnywhere(name string) bool {
	for _, r := range rings {
		if r.seen[name] {
			return true
		}
	}
	return false
}

// Log registers its ring, whose map SeenAnywhere then looks up.
type Log struct{ r ring }

func NewLog() *Log {
	l := &Log{}
	l.r.seen = make(map[string]bool) // inherent: not reported by default
	l.r.register()
	return l
}

func (l *Log) Add(name string) { l.r.add(name) }

// Journal keeps an index that nothing looks up: the map is dead, which
// is another change than making it lazily.
type Journal struct {
	byName map[string]int
	names  []string
}

func NewJournal() *Journal {
	j := &Journal{}
	j.byName = make(map[string]int) // inherent: not reported by default
	return j
}

func (j *Journal) Add(name string) {
	j.byName[name] = len(j.names)
	j.names = append(j.names, name)
}
