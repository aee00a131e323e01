package report

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/internal/plural"
	"github.com/goadvise/goadvise/load"
)

// CheckBuild builds and vets, with the fixed files of res in place of the
// originals (go build -overlay and go vet -overlay, so that nothing is
// written), the packages of the module in modDir that the fixed files
// belong to and the module's packages that import them, tests included.
// It returns nil if they build and vet as they did before the fixes: an
// error the module already had is not the fixes'. Otherwise the error
// says what the go command reported that it did not before, and names the
// fixes of the files involved (for an importer, the fixes of the packages
// it imports). env is the go command's environment (nil: the process's).
func CheckBuild(ctx context.Context, modDir string, env []string, res *FixResult) error {
	var changed []string
	for file := range res.Files {
		if strings.HasSuffix(file, ".go") {
			changed = append(changed, file)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	l, err := load.Packages(ctx, load.ListOptions{Dir: modDir, Env: env, Tests: true}, "./...")
	if err != nil {
		return fmt.Errorf("checking the fixes: %w", err)
	}

	// The packages the fixed files belong to, by import path, and the
	// package of every file of the module.
	pkgOf := make(map[string]string)
	fixedPkgs := make(map[string]bool)
	for _, p := range l.Packages {
		if p.ForTest != "" || p.Dir == "" {
			continue
		}
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles} {
			for _, name := range list {
				file := filepath.Join(p.Dir, name)
				pkgOf[file] = p.ImportPath
				if slices.Contains(changed, file) || slices.Contains(changed, resolved(file)) {
					fixedPkgs[p.ImportPath] = true
				}
			}
		}
	}
	if len(fixedPkgs) == 0 {
		return nil // no fixed file is built here (build constraints)
	}
	// The packages to check: the fixed ones and, through any variant
	// (tests included), the module's packages that import them.
	deps := make(map[string][]string) // package -> the fixed packages it imports
	check := make(map[string]bool)
	for _, p := range l.Packages {
		target := p.ImportPath
		if p.ForTest != "" {
			target = p.ForTest
		} else if strings.HasSuffix(p.ImportPath, ".test") || p.Module == nil || !p.Module.Main {
			continue
		}
		if fixedPkgs[target] {
			check[target] = true
		}
		for _, d := range p.Deps {
			d, _, _ = strings.Cut(d, " ")
			if fixedPkgs[d] && d != target {
				check[target] = true
				if !slices.Contains(deps[target], d) {
					deps[target] = append(deps[target], d)
				}
			}
		}
	}
	pkgs := make([]string, 0, len(check))
	for p := range check {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)

	tmp, err := os.MkdirTemp("", "goadvise-fixcheck-")
	if err != nil {
		return fmt.Errorf("checking the fixes: %w", err)
	}
	defer os.RemoveAll(tmp)
	overlay := struct{ Replace map[string]string }{make(map[string]string)}
	for i, file := range changed {
		name := filepath.Join(tmp, fmt.Sprintf("%d.go", i))
		if err := os.WriteFile(name, res.Files[file].New, 0o644); err != nil {
			return fmt.Errorf("checking the fixes: %w", err)
		}
		overlay.Replace[file] = name
		if r := resolved(file); r != file {
			overlay.Replace[r] = name
		}
	}
	data, err := json.Marshal(overlay)
	if err != nil {
		return fmt.Errorf("checking the fixes: %w", err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayFile, data, 0o644); err != nil {
		return fmt.Errorf("checking the fixes: %w", err)
	}
	run := func(overlay bool) []string {
		var out []string
		for _, args := range [][]string{{"build", "-o", os.DevNull}, {"vet"}} {
			if overlay {
				args = append(args, "-overlay="+overlayFile)
			}
			args = append(append(args, "--"), pkgs...)
			if _, err := gocmd.Output(ctx, modDir, env, args...); err != nil {
				out = append(out, strings.Split(err.Error(), "\n")...)
			}
		}
		return out
	}
	after := run(true)
	if len(after) == 0 || ctx.Err() != nil {
		return ctx.Err()
	}
	before := make(map[string]bool)
	for _, line := range run(false) {
		before[errorKey(modDir, line)] = true
	}
	var fresh []string
	blamed := make(map[string]bool) // files whose fixes are blamed
	for _, line := range after {
		key := errorKey(modDir, line)
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" || before[key] {
			continue
		}
		before[key] = true // vet repeats what the build said
		fresh = append(fresh, strings.TrimPrefix(line, "vet: "))
		file, _ := errorFile(modDir, line)
		switch {
		case file == "":
		case slices.Contains(changed, file):
			blamed[file] = true
		default:
			// An importer: the fixes of the packages it imports.
			for _, d := range deps[pkgOf[file]] {
				for _, c := range changed {
					if pkgOf[c] == d || pkgOf[resolved(c)] == d {
						blamed[c] = true
					}
				}
			}
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	var fixes []string
	for _, f := range res.Fixes {
		for _, file := range f.Files {
			if blamed[file] || len(blamed) == 0 {
				fixes = append(fixes, f.Name)
				break
			}
		}
	}
	const max = 10
	if len(fresh) > max {
		fresh = append(fresh[:max], fmt.Sprintf("(and %d more)", len(fresh)-max))
	}
	return fmt.Errorf("the fixes would break the build, so no file was written:\n\t%s\nby %s:\n\t%s",
		strings.Join(fresh, "\n\t"), plural.Count(len(fixes), "fix", "fixes"), strings.Join(fixes, "\n\t"))
}

// resolved returns file with its symbolic links resolved, or file.
func resolved(file string) string {
	if r, err := filepath.EvalSymlinks(file); err == nil {
		return r
	}
	return file
}

// errorRE matches a go command's error line: file:line[:col]: message.
var errorRE = regexp.MustCompile(`^(?:vet: )?(\S+\.go):\d+(?::\d+)?: (.*)$`)

// errorFile returns the absolute path of the file an error line of the
// go command run in dir names, and its message.
func errorFile(dir, line string) (file, msg string) {
	m := errorRE.FindStringSubmatch(line)
	if m == nil {
		return "", line
	}
	file = m[1]
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	return file, m[2]
}

// errorKey is an error line without its position, which fixes move: the
// same error before and after them has the same key.
func errorKey(dir, line string) string {
	file, msg := errorFile(dir, line)
	return file + ": " + msg
}
