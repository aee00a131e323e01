// Command app calls interface methods in loops on values that may come
// from its dependency.
package main

import (
	"fmt"
	"os"

	"example.com/dep"
	"example.com/dep/box"
)

// Weigher's method names no type of the app: a type of a dependency can
// implement it.
type Weigher interface{ Weigh() int }

type light struct{}

func (light) Weigh() int { return 1 }

// Massive is implemented by solid alone.
type Massive interface{ Mass() int }

type solid struct{}

func (solid) Mass() int { return 2 }

// Item is the app's; Sink names it, so only the app's types and instances
// of generic types can implement Sink.
type Item struct{ N int }

type Sink interface{ Put(*Item) }

type memSink struct{ items []*Item }

func (m *memSink) Put(it *Item) { m.items = append(m.items, it) }

func main() {
	// The receiver is a light, or what dep.Make returns: an impl.Heavy.
	var w Weigher = light{}
	if len(os.Args) > 2 {
		w = dep.Make().(Weigher)
	}
	total := 0
	for i := 0; i < len(os.Args); i++ {
		total += w.Weigh()
	}

	// The receiver is always a solid: reported.
	var m Massive = solid{}
	for i := 0; i < len(os.Args); i++ {
		total += m.Mass()
	}

	// The receiver is a *memSink, or the *box.Box[*Item] that box.New
	// returns.
	var sink Sink = &memSink{}
	if len(os.Args) > 3 {
		sink = box.New[*Item]().(Sink)
	}
	for i := 0; i < len(os.Args); i++ {
		sink.Put(&Item{N: i})
	}
	fmt.Println(total)
}
