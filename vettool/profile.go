package vettool

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/load"
)

// vetPathFlags are the flags of the analyzers whose values are files or
// directories (comma-separated) that the user names relative to the
// directory go vet runs in.
var vetPathFlags = []string{"hotpath.profile"}

// resolveVetPaths returns args, go vet's flags for one unit, with the
// relative paths of vetPathFlags made absolute, or an error naming a path
// that does not exist.
//
// go vet runs the tool once per package in the package's directory and
// passes the flags as the user wrote them, so a relative path given to go
// vet in the module root names a file the units of subpackages do not
// find. The paths are resolved against base, the directory go vet runs in
// when it is known (see vetDir); otherwise against the package directory
// and its parents up to the module root, the first that has the file.
func resolveVetPaths(args []string, base, pkgDir string) ([]string, error) {
	out := append([]string(nil), args...)
	for _, f := range pathFlags(args) {
		var paths []string
		for _, p := range strings.Split(f.value, ",") {
			abs, err := resolveVetPath(p, base, pkgDir)
			if err != nil {
				return nil, fmt.Errorf("-%s: %v", f.name, err)
			}
			paths = append(paths, abs)
		}
		out[f.at] = f.prefix + strings.Join(paths, ",")
	}
	return out, nil
}

// A pathFlag is a flag of vetPathFlags in a command line.
type pathFlag struct {
	name   string // "hotpath.profile"
	value  string // the comma-separated paths
	at     int    // the index of the argument that holds the value
	prefix string // what precedes the value in that argument: "-hotpath.profile=" or ""
}

// pathFlags returns the flags of vetPathFlags in args, in the forms the
// flag package accepts: -name=value, --name=value, -name value.
func pathFlags(args []string) []pathFlag {
	var out []pathFlag
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		flagName, val, hasVal := strings.Cut(args[i], "=")
		name := strings.TrimLeft(flagName, "-")
		if !slices.Contains(vetPathFlags, name) {
			continue
		}
		if hasVal {
			out = append(out, pathFlag{name, val, i, flagName + "="})
		} else if i+1 < len(args) {
			i++
			out = append(out, pathFlag{name, args[i], i, ""})
		}
	}
	return out
}

// resolveVetPath resolves one path as resolveVetPaths says.
func resolveVetPath(p, base, pkgDir string) (string, error) {
	if p == "" || strings.Contains(p, "://") || filepath.IsAbs(p) {
		return p, nil // a URL, or a path the profile loader names if missing
	}
	if base != "" {
		abs := filepath.Join(base, p)
		if _, err := os.Stat(abs); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				// go vet prints the path relative to its directory.
				return "", fmt.Errorf("no such file: %s (a relative path is taken in the directory go vet runs in)", abs)
			}
			return "", err
		}
		return abs, nil
	}
	module, _ := load.Roots(pkgDir)
	for d := pkgDir; ; {
		abs := filepath.Join(d, p)
		if _, err := os.Stat(abs); err == nil {
			return abs, nil
		}
		if d == module {
			return "", fmt.Errorf("no such file: %s, in the package's directory %s or above it up to the module root", p, pkgDir)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no such file: %s, in the package's directory %s or above it", p, pkgDir)
		}
		d = parent
	}
}

// vetDir returns the directory go vet runs in, the working directory of
// this process's parent if that is the go command, or "" where that cannot
// be known: only Linux's /proc tells, and a -toolexec wrapper between go
// vet and the tool hides it.
func vetDir() string {
	proc, ok := parentGo()
	if !ok {
		return ""
	}
	cwd, err := os.Readlink(proc + "/cwd")
	if err != nil || !filepath.IsAbs(cwd) {
		return ""
	}
	return cwd
}

// parentGo returns the /proc directory of this process's parent, if it is
// the go command.
func parentGo() (string, bool) {
	proc := fmt.Sprintf("/proc/%d", os.Getppid())
	exe, err := os.Readlink(proc + "/exe")
	if err != nil {
		return "", false
	}
	b := filepath.Base(exe)
	return proc, b == "go" || b == "go.exe"
}

// printVetVersion answers go vet's -V=full as unitchecker does (the
// executable's hash as its build ID), with the content of the profiles
// that go vet's command line names in the hash where vetDir can see it.
// go vet caches each package's result under the tool's ID and the flags
// as written: without the profiles in the ID, a profile replaced at the
// same path would leave go vet replaying the old one's findings.
func printVetVersion() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	h := sha256.New()
	if err := hashContent(h, exe); err != nil {
		return err
	}
	if base := vetDir(); base != "" {
		proc, _ := parentGo()
		cmdline, err := os.ReadFile(proc + "/cmdline")
		if err == nil {
			args := append(strings.Fields(os.Getenv("GOFLAGS")), strings.Split(string(cmdline), "\x00")...)
			for _, f := range pathFlags(args) {
				for _, p := range strings.Split(f.value, ",") {
					if p != "" && !strings.Contains(p, "://") && !filepath.IsAbs(p) {
						p = filepath.Join(base, p)
					}
					fmt.Fprintf(h, "\n-%s %s\n", f.name, p)
					hashContent(h, p) // a missing one is reported by each unit
				}
			}
		}
	}
	fmt.Printf("%s version devel comments-go-here buildID=%02x\n", exe, h.Sum(nil))
	return nil
}

// hashContent writes the content of a file to h or, for a directory, the
// names, sizes and modification times of its entries.
func hashContent(h io.Writer, name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		entries, err := os.ReadDir(name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				fmt.Fprintf(h, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
			}
		}
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}
