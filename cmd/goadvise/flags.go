package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// errHelp is returned by parseArgs after it printed the usage for -h: the
// command exits with status 0.
var errHelp = errors.New("help shown")

// usage describes a command or subcommand for its -h.
type usage struct {
	name string // "check", "pgo merge"
	line string // after "goadvise ": "check [flags] [packages]"
	long string // description, or ""
}

// commandUsage returns the usage of a registered command.
func commandUsage(name string) usage {
	c := commands[name]
	return usage{name: name, line: c.usage, long: c.long}
}

// parseArgs parses a command's flags from args with fs, and returns the
// arguments after them. With -h (or -help) it prints the usage,
// description and flags to standard output and returns errHelp. A flag
// error, or a flag after the first argument that is not one ("check
// ./... -top 2", where the flag package would take -top for a package), is
// printed on standard error and returned.
func parseArgs(fs *flag.FlagSet, u usage, args []string, stdout, stderr io.Writer) ([]string, error) {
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: goadvise %s\n", u.line)
		if u.long != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(u.long))
		}
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(stdout)
			fs.Usage()
			return nil, errHelp
		}
	}
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	rest := fs.Args()
	for _, a := range rest {
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			err := fmt.Errorf("flag %s after the arguments: flags go first (goadvise %s)", a, u.line)
			fmt.Fprintf(stderr, "goadvise %s: %v\n", u.name, err)
			return nil, err
		}
	}
	return rest, nil
}
