// Command scalegen writes a module of one large package of many small
// functions (package internal/synth) for scripts/scale.sh.
//
// Usage:
//
//	go run ./scripts/scalegen [-funcs 20000] [-perfile N] -o DIR
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/goadvise/goadvise/internal/synth"
)

func main() {
	out := flag.String("o", "", "directory to write the module in")
	funcs := flag.Int("funcs", 20000, "functions in the package")
	perFile := flag.Int("perfile", 0, "functions in each file (0: all in one file, as generated code often is)")
	module := flag.String("module", "example.com/scale", "module path")
	flag.Parse()
	if *out == "" || *funcs < 1 {
		log.Fatal("usage: scalegen [-funcs N] -o DIR")
	}
	for name, content := range synth.Module(*module, *funcs, *perFile) {
		p := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			log.Fatal(err)
		}
	}
}
