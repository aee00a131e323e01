package main

import (
	"flag"
	"os"
)

func mark() string { return "" }

var verbose = flag.Bool("v", false, mark()) // want `cold: runs once: flag registration`

var usage = mark() // want `cold: runs once: in a package-level initialiser`

func main() {
	mark() // want `cold: runs once: in main, outside its loops`
	for _, name := range os.Args {
		// Flag registration runs once, even in a loop.
		flag.String(name, "", mark()) // want `cold: runs once: flag registration`
	}
	flag.Parse()
	cfg := ParseConfig(os.Args[0])
	go serve()
	var d Decoder
	d.Decode()
	for range cfg {
		mark() // want `hot-loop: inside a loop`
		work()
	}
}

// ParseConfig is named like per-item work, but only main calls it, once.
func ParseConfig(path string) []string {
	mark() // want `cold: runs once: called only from main, outside its loops`
	var out []string
	for range path {
		// Its loops still run per item of its input.
		mark() // want `hot-loop: inside a loop`
	}
	return out
}

// serve runs for the whole run of the program in a goroutine main starts:
// its loop is hot.
func serve() {
	mark() // want `cold: runs once: called only from main, outside its loops`
	for {
		mark() // want `hot-loop: inside a loop`
	}
}

func work() {
	mark() // want `per-item: called in a loop in main`
}

type Decoder struct{}

// Decode is a method: something may call it through an interface, so its
// name still says per item.
func (d *Decoder) Decode() {
	mark() // want `per-item: method Decode runs per item`
}
