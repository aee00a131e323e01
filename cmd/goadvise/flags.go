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
		e.SARIFLevels[t] = report.SARIFLevels(cf.conf.SARIFLevels).Level(t)
	}
	if err := e.Write(os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	return exitOK
}
