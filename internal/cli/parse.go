// Package cli holds what goadvise's commands share on the command line:
// parsing a command's flags (flags first; a one-line error that suggests
// the nearest flag), flag values checked as they are parsed, the status
// line of a long run, and goadvise's version.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrHelp is returned by Parse after it printed the usage for -h: the
// command exits with status 0.
var ErrHelp = errors.New("help shown")

// Usage describes a command or subcommand for its -h.
type Usage struct {
	Name string // "check", "pgo merge"
	Line string // after "goadvise ": "check [flags] [packages]"
	Long string // description, or ""
}

// Parse parses a command's flags from args with fs, and returns the
// arguments after them. With -h (or -help) it prints the usage,
// description and flags to stdout and returns ErrHelp. A flag
// error, or a flag after the first argument that is not one ("check
// ./... -top 2", where the flag package would take -top for a package), is
// printed on standard error in one line, with the closest flag for an
// unknown one and a pointer to -h rather than the whole usage, and
// returned: the command exits with status 2, as the flag package does.
func Parse(fs *flag.FlagSet, u Usage, args []string, stdout, stderr io.Writer) ([]string, error) {
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: goadvise %s\n", u.Line)
		if u.Long != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(u.Long))
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
			return nil, ErrHelp
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
		fmt.Fprintf(stderr, "goadvise %s: %s\nrun 'goadvise %s -h' for the flags\n", u.Name, msg, u.Name)
		return nil, err
	}
	fs.SetOutput(stderr)
	rest := fs.Args()
	for _, a := range rest {
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			err := fmt.Errorf("flag %s after the arguments: flags go first (goadvise %s)", a, u.Line)
			fmt.Fprintf(stderr, "goadvise %s: %v\n", u.Name, err)
			return nil, err
		}
	}
	return rest, nil
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
