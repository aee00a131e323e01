// Command app uses the library with one Store and the engine with one Codec.
package main

import (
	"fmt"
	"os"

	"example.com/open/internal/engine"
	"example.com/open/lib"
)

func main() {
	c := lib.New(lib.WithStore(&lib.MemStore{}))
	fmt.Println(c.Sum(os.Args), lib.Count(os.Args), engine.Run(engine.Fast{}, [][]byte{[]byte("x")}),
		lib.NewFeeder().Feed(engine.Fast{}, nil))
}
