package optlog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// CompileEdited compiles the package of pass with the contents of some of
// its files replaced (keyed by absolute file name, as in pass.Fset) and
// returns the compiler's records for the package, with the original file
// names. The source tree is never written, and nothing is cached.
//
// If keep is not nil, only the compiler's decisions about the functions of
// keep are wanted: the package's other functions that they do not reach
// are compiled with empty bodies, which on a large package makes the
// compile a fraction of its cost (see stubbed). The records of the other
// functions are then meaningless.
//
// Under go vet -vettool (see [UseVetConfig]) the unit is compiled directly
// with the export data go vet provides; otherwise the package is compiled
// by go list -export with an -overlay, in the directory of its files.
func CompileEdited(ctx context.Context, pass *analysis.Pass, replace map[string][]byte, keep []*types.Func) ([]Record, error) {
	if len(pass.Files) == 0 {
		return nil, fmt.Errorf("%s: no files to compile", pass.Pkg.Path())
	}
	if keep != nil {
		if stubs := stubbed(pass, keep, replace); stubs != nil {
			all := make(map[string][]byte, len(replace)+len(stubs))
			for name, src := range replace {
				all[name] = src
			}
			for name, src := range stubs {
				all[name] = src
			}
			replace = all
		}
	}
	dir, err := os.MkdirTemp("", "goadvise-edit-")
	if err != nil {
		return nil, fmt.Errorf("creating a directory for the edited files: %w", err)
	}
	defer os.RemoveAll(dir)
	// Each replaced file keeps its base name, in a directory of its own,
	// so that the records name it as the original.
	written := make(map[string]string) // original -> replacement
	for orig, content := range replace {
		sub, err := os.MkdirTemp(dir, "f")
		if err != nil {
			return nil, err
		}
		name := filepath.Join(sub, filepath.Base(orig))
		if err := os.WriteFile(name, content, 0o666); err != nil {
			return nil, fmt.Errorf("writing the edited %s: %w", filepath.Base(orig), err)
		}
		written[orig] = name
	}
	var recs []Record
	if cfg := vetConfig; cfg != nil && cfg.ImportPath == pass.Pkg.Path() {
		files := nonTestFiles(cfg.GoFiles)
		for i, f := range files {
			if r, ok := written[f]; ok {
				files[i] = r
			}
		}
		recs, err = compileVetFiles(ctx, cfg, files, dir)
	} else {
		recs, err = compileOverlay(ctx, pass, written, dir)
	}
	if err != nil {
		return nil, err
	}
	back := make(map[string]string)
	for orig, r := range written {
		back[r] = orig
	}
	for i := range recs {
		if orig, ok := back[recs[i].Pos.File]; ok {
			recs[i].Pos.File = orig
		}
	}
	return recs, nil
}

// compileOverlay compiles the package of pass with go list -export and
// the files of written in an -overlay, logging under dir.
func compileOverlay(ctx context.Context, pass *analysis.Pass, written map[string]string, dir string) ([]Record, error) {
	path := pass.Pkg.Path()
	opts := standaloneOptions(pass, path)
	data, err := json.Marshal(map[string]any{"Replace": written})
	if err != nil {
		return nil, err
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o666); err != nil {
		return nil, fmt.Errorf("writing the overlay: %w", err)
	}
	logDir := filepath.Join(dir, "log")
	// The fresh log directory makes the compile action new: the go
	// command cannot reuse a cached compile, which would write no log.
	args := []string{"list", "-e", "-export", "-buildvcs=false", "-json=ImportPath,Error,DepsErrors", "-overlay=" + overlay}
	if w := openWarm.Load(); w != nil {
		// The package's own flag comes last, and the go command gives
		// a package the last flag that matches it.
		args = append(args, w.flags...)
	}
	args = append(args, "-gcflags="+path+"="+quoteFlag("-json=0,"+logDir)+" -dwarf=false", "--")
	args = append(args, opts.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	gocmd.InterruptOnCancel(cmd)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	runErr := cmd.Run()
	failed, err := listErrors(bytes.NewReader(out.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v", err)
	}
	if msg, ok := failed[path]; ok {
		return nil, fmt.Errorf("the edited %s does not compile: %s", path, msg)
	}
	if runErr != nil {
		return nil, fmt.Errorf("go list -export %s: %v: %s", path, runErr, firstLines(strings.TrimSpace(stderr.String()), 10))
	}
	return parseLogDir(logDir, path)
}
