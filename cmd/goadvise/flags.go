package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/config"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
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
// printed on standard error in one line, with the closest flag for an
// unknown one and a pointer to -h rather than the whole usage, and
// returned: the command exits with exitUsage.
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
	// The flag package prints the error and the whole usage; goadvise
	// prints the error alone.
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			if near := nearestFlag(fs, name); near != "" {
				msg += " (did you mean -" + near + "?)"
			}
		}
		fmt.Fprintf(stderr, "goadvise %s: %s\nrun 'goadvise %s -h' for the flags\n", u.name, msg, u.name)
		return nil, err
	}
	fs.SetOutput(stderr)
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

// applyConfig reads the configuration file of the module the current
// directory is in (see package config) and sets from it the flags of fs
// that the command line did not set. analyzers are those whose flags fs
// has.
func applyConfig(fs *flag.FlagSet, analyzers []*analysis.Analyzer) (*config.Config, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	conf, err := config.Load(moduleRoot(dir))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, a := range analyzers {
		names = append(names, a.Name)
	}
	for _, p := range wholeprog.Passes() {
		names = append(names, p.Name)
	}
	return conf, conf.Apply(fs, names)
}

// printConfig prints check's effective configuration, from the file and
// the command line, for check -config.
func printConfig(fs *flag.FlagSet, analyzers []*analysis.Analyzer, cf checkFlags) int {
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	e := &config.Effective{
		File:        cf.conf.Path,
		Searched:    moduleRoot(dir),
		Enable:      splitList(cf.enable),
		Disable:     splitList(cf.disable),
		Analyzers:   make(map[string]map[string]string),
		Exclude:     cf.conf.Exclude,
		SARIFLevels: make(map[string]string),
		NewFromRev:  cf.newFromRev,
	}
	// The analyzers' flags set by the file or the command line.
	fs.Visit(func(f *flag.Flag) {
		for _, a := range analyzers {
			if name, ok := strings.CutPrefix(f.Name, a.Name+"."); ok {
				if e.Analyzers[a.Name] == nil {
					e.Analyzers[a.Name] = make(map[string]string)
				}
				e.Analyzers[a.Name][name] = f.Value.String()
			}
		}
	})
	for _, t := range config.Tiers() {
		e.SARIFLevels[t] = report.SARIFOptions{Levels: cf.levels()}.Level(t)
	}
	if err := e.Write(os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	return exitOK
}

// nearestFlag returns the flag of fs whose name is closest to name, a flag
// fs does not define, if it is a likely typo of it (at most two edits
// away, or one for a short name), or "".
func nearestFlag(fs *flag.FlagSet, name string) string {
	limit := 2
	if len(name) <= 4 {
		limit = 1
	}
	best, bestDist := "", limit+1
	fs.VisitAll(func(f *flag.Flag) { // in name order: the first of equals wins
		if d := editDistance(name, f.Name); d < bestDist && d < len(name) {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance returns the Levenshtein distance of a and b, counting a
// swap of two adjacent characters as one edit.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
