// Package vettool makes goadvise a go vet tool (go vet
// -vettool=$(command -v goadvise)): it speaks go vet's vet-tool protocol
// through x/tools' unitchecker, and adds what goadvise needs around it.
//
//   - The unit's compiler decisions: the unit's files are compiled, with
//     the export data go vet provides, while the unit is type-checked and
//     analysed (optlog.VetUnit), when an analyzer that needs them runs.
//   - Profile paths: go vet runs the tool once per package, in the
//     package's directory, with the flags as the user wrote them; a
//     relative -hotpath.profile is resolved against the directory go vet
//     runs in (the parent's, read from /proc on Linux), or else against the
//     package's directory and its parents up to the module root.
//   - The tool's ID (-V=full): go vet caches each package's result under
//     it and the flags as written, so it covers the content of the
//     profiles go vet's command line names.
//   - Garbage collection: a unit's process lives for seconds, and
//     collects less often than by default (tuneGC).
package vettool

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/optlog"
)

// IsInvocation reports whether go vet started this process with args,
// its arguments: it passes -V=full to identify the tool, -flags to list its
// flags, and otherwise the path of a JSON config file ending in .cfg as the
// last argument.
func IsInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	last := args[len(args)-1]
	if strings.HasSuffix(last, ".cfg") {
		return true
	}
	for _, a := range args {
		if a == "-V=full" || a == "-flags" || a == "--V=full" || a == "--flags" {
			return true
		}
	}
	return false
}

// Main runs analyzers as go vet's tool for the unit that args, the
// process's arguments, name, and exits: it hands the process over to
// unitchecker, which speaks the go vet protocol, after preparing what
// goadvise adds to it. The analyzers include the helpers whose flags
// (such as -hotpath.profile) may be given on go vet's command line.
func Main(args []string, analyzers ...*analysis.Analyzer) {
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "--V=full") {
		if err := printVetVersion(); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if cfg := args[len(args)-1]; strings.HasSuffix(cfg, ".cfg") {
		// Let the escape analyzer compile exactly this unit with the
		// export data go vet provides. If the config cannot be used, the
		// analyzer falls back to building the package itself.
		unit, err := optlog.ReadVetUnit(cfg)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		}
		// unitchecker parses os.Args: give it the profile paths resolved
		// against the directory go vet runs in, not the unit's.
		dir, factsOnly := "", false
		if unit != nil {
			dir, factsOnly = unit.Dir(), unit.FactsOnly()
		}
		if dir == "" {
			dir, _ = os.Getwd()
		}
		flags, perr := resolveVetPaths(args[:len(args)-1], vetDir(), dir)
		switch {
		case perr == nil:
			os.Args = append(append(os.Args[:1], flags...), cfg)
		case !factsOnly:
			// A dependency's unit, run for facts, prints nothing: the
			// error is said once per package go vet reports on.
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", perr)
			os.Exit(1)
		}
		if unit != nil {
			unit.Provide(escapeRuns(args[:len(args)-1], analyzers))
			tuneGC(unit.SourceSize())
		}
	}
	unitchecker.Main(analyzers...)
}

// smallUnit is the size of source up to which a unit's process collects
// garbage least often (see tuneGC): x/tools' largest package, go/ssa with
// its tests, has 550 kB.
const smallUnit = 1 << 20

// tuneGC lets the heap of the process of a unit with size bytes of Go
// source grow further before collecting than the default (GOGC=100),
// unless the user set GOGC. A unit's process lives for a few seconds at
// most, and its garbage collection was the largest cost it adds to go vet's
// own (see docs/performance.md):
//   - a small unit's heap stays under 100 MB: it grows to 5x its live size
//     (GOGC=400), which saved a fifth of the vet tool's CPU time on
//     x/tools;
//   - a large one's grows to 3x (GOGC=200): on nats-server's server
//     package with its tests (12 MB of source), 10.4 s of CPU and a peak of
//     1.6 GB, against 13.9 s and 1.2 GB by default, and 10.8 s and 1.8 GB
//     at GOGC=400.
func tuneGC(size int64) {
	if size < 0 || os.Getenv("GOGC") != "" {
		return
	}
	if size <= smallUnit {
		debug.SetGCPercent(400)
	} else {
		debug.SetGCPercent(200)
	}
}

// escapeRuns reports whether, given go vet's flags for the tool, one of
// analyzers that needs the compiler's decisions will run: the escape
// analyzer is not turned off, and either no analyzer is selected by name
// (all run) or one that needs them is.
func escapeRuns(flags []string, analyzers []*analysis.Analyzer) bool {
	needs := make(map[string]bool)
	for _, a := range analyzers {
		needs[a.Name] = suite.Requires([]*analysis.Analyzer{a}, escape.Analyzer)
	}
	selected, any := false, false
	for _, f := range flags {
		name, val, hasVal := strings.Cut(strings.TrimLeft(f, "-"), "=")
		on := !hasVal || val == "true" || val == "1"
		switch {
		case name == "escape.off":
			if on {
				return false
			}
		case strings.Contains(name, "."):
			// An analyzer's own flag.
		default:
			if _, ok := needs[name]; ok && on {
				selected = true
				any = any || needs[name]
			}
		}
	}
	return !selected || any
}
