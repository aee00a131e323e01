package margin

import "fmt"

type Buf struct {
	b []byte
	i int
}

// Next is 13 over the budget: not reported with -margin=10.
func (b *Buf) Next() byte {
	if b.i >= len(b.b) {
		panic(fmt.Sprintf("read past end: %d >= %d", b.i, len(b.b)))
	}
	c := b.b[b.i]
	b.i++
	return c
}
