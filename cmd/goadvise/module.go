package main

import (
	"fmt"
	"io"
	"os"

	"github.com/goadvise/goadvise/load"
)

// requireModule checks [load.InModule] for the working directory and, if
// it fails, prints the error on stderr and reports false.
func requireModule(patterns []string, stderr io.Writer) bool {
	wd, err := os.Getwd()
	if err != nil {
		return true // the go command will say what is wrong
	}
	if err := load.InModule(wd, patterns); err != nil {
		fmt.Fprintf(stderr, "goadvise: %v\n", err)
		return false
	}
	return true
}
