package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	for i := 0; i < len(out); i++ {
		if !strings.HasPrefix(out[i], "-") {
			continue
		}
		flagName, val, hasVal := strings.Cut(out[i], "=")
		name := strings.TrimLeft(flagName, "-")
		if !slices.Contains(vetPathFlags, name) {
			continue
		}
		at := i
		if !hasVal {
			if i+1 >= len(out) {
				break
			}
			i++
			at, val = i, out[i]
		}
		var paths []string
		for _, p := range strings.Split(val, ",") {
			abs, err := resolveVetPath(p, base, pkgDir)
			if err != nil {
				return nil, fmt.Errorf("-%s: %v", name, err)
			}
			paths = append(paths, abs)
		}
		if val = strings.Join(paths, ","); hasVal {
			val = flagName + "=" + val
		}
		out[at] = val
	}
	return out, nil
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
	for d := pkgDir; ; {
		abs := filepath.Join(d, p)
		if _, err := os.Stat(abs); err == nil {
			return abs, nil
		}
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
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
	ppid := os.Getppid()
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", ppid))
	if err != nil {
		return ""
	}
	if b := filepath.Base(exe); b != "go" && b != "go.exe" {
		return ""
	}
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", ppid))
	if err != nil || !filepath.IsAbs(cwd) {
		return ""
	}
	return cwd
}
