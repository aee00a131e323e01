package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/goadvise/goadvise/load"
)

// inModule returns an error, to print on one line, if packages matched by
// patterns in dir need a Go module and dir is not inside one: go list
// would fail with its own words for each package and goadvise would then
// report no findings in no packages. Patterns of the standard library
// ("fmt", "std") need no module; a workspace (go.work) or GOPATH mode
// (GO111MODULE=off) is left to the go command.
func inModule(dir string, patterns []string) error {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	need := false
	for _, p := range patterns {
		need = need || needsModule(p)
	}
	if !need {
		return nil
	}
	if module, _ := load.Roots(dir); module != "" {
		return nil
	}
	// No go.mod above dir: ask the go command, which knows of GOWORK,
	// GOFLAGS=-modfile and GO111MODULE.
	env, err := load.ReadEnv(context.Background(), dir, nil)
	if err != nil {
		return nil // the go command will say what is wrong
	}
	if env.GOMOD != os.DevNull || (env.GOWORK != "" && env.GOWORK != "off") {
		return nil
	}
	return fmt.Errorf("%s is not inside a Go module (no go.mod): run it in a module or pass package patterns of one", dir)
}

// needsModule reports whether a package pattern names packages of a
// module: a directory ("./...", "/src/x"), "all", or an import path whose
// first element has a dot ("example.com/x"), unlike the standard
// library's.
func needsModule(pattern string) bool {
	if pattern == "all" || pattern == "." || pattern == ".." || filepath.IsAbs(pattern) ||
		strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../") {
		return true
	}
	first, _, _ := strings.Cut(pattern, "/")
	return strings.Contains(first, ".")
}

// requireModule checks [inModule] for the working directory and, if it
// fails, prints the error on stderr and reports false.
func requireModule(patterns []string, stderr io.Writer) bool {
	wd, err := os.Getwd()
	if err != nil {
		return true // the go command will say what is wrong
	}
	if err := inModule(wd, patterns); err != nil {
		fmt.Fprintf(stderr, "goadvise: %v\n", err)
		return false
	}
	return true
}
