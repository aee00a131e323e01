// Command goadvise is a whole-program optimization advisor for Go services.
//
// Invoked by go vet (go vet -vettool=$(command -v goadvise) ./...) it speaks
// the vet tool protocol; otherwise it runs one of its subcommands:
//
//	goadvise check [flags] [packages]   ranked, fixable findings
//	goadvise help [command|analyzer]
//	goadvise version
//
// See README.md for the list of commands and docs/ for each in detail.
package main

import (
	"embed"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/internal/toolexec"
	"github.com/goadvise/goadvise/vettool"
)

// A command is one goadvise subcommand. Files of this package register their
// commands in init functions with register.
type command struct {
	name  string
	usage string // one line: "check [flags] [packages]"
	short string // one sentence for the command list
	long  string // optional longer help
	run   func(args []string) int
}

var commands = map[string]*command{}

// The commands' descriptions, for -h and help: help/NAME.txt.
//
//go:embed help
var helpFiles embed.FS

// helpText returns the description help/name.txt, without its final
// newline.
func helpText(name string) string {
	data, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("goadvise: no help text " + name) // a file of the binary
	}
	return strings.TrimRight(string(data), "\n")
}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("goadvise: duplicate command " + c.name)
	}
	commands[c.name] = c
}

// Exit statuses of goadvise check (documented in README.md).
const (
	exitOK       = 0
	exitError    = 1 // bad input, load failure, tool error
	exitUsage    = 2 // a flag the command does not define, or misplaced (as the flag package exits)
	exitFindings = 3
)

func main() {
	// goadvise serves as its own -toolexec wrapper: pgo explain measures
	// compiles with it, and inlinebudget stops its verifying compiles
	// after inlining.
	toolexec.Serve()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if vettool.IsInvocation(args) {
		// The suite as go vet runs it: the helpers too, so that their
		// flags (such as -hotpath.profile) can be given to go vet.
		vettool.Main(args, append(suite.Analyzers(), suite.Helpers()...)...) // does not return
	}
	if len(args) == 0 {
		return commands["check"].run(nil)
	}
	if c, ok := commands[args[0]]; ok {
		return c.run(args[1:])
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return runHelp(nil)
	}
	// "goadvise [flags] [packages]" is short for "goadvise check ...".
	if strings.HasPrefix(args[0], "-") || looksLikePattern(args[0]) {
		return commands["check"].run(args)
	}
	fmt.Fprintf(os.Stderr, "goadvise: unknown command %q (run 'goadvise help')\n", args[0])
	return exitError
}

// looksLikePattern reports whether arg is a package pattern rather than a
// misspelled command name.
func looksLikePattern(arg string) bool {
	return strings.ContainsAny(arg, "./") || arg == "all" || arg == "std"
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
