// Command gen writes the analyzers' reference (see package docgen) to the
// file named by its argument.
package main

import (
	"fmt"
	"os"

	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/internal/docgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	if err := atomicfile.WriteFile(os.Args[1], docgen.Analyzers(), atomicfile.Replace); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}
