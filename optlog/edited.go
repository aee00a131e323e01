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
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/internal/toolexec"
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
// Under go vet -vettool (see [VetUnit]) the unit is compiled directly
// with the export data go vet provides; otherwise the package is compiled
// by go list -export with an -overlay, in the directory of its files.
func CompileEdited(ctx context.Context, pass *analysis.Pass, replace map[string][]byte, keep []*types.Func) ([]Record, error) {
	ctx, cancel := withRun(ctx)
	defer cancel()
	e, err := writeEdited(pass, replace, keep)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(e.dir)
	var recs []Record
	if u := unitFor(pass.Pkg.Path()); u != nil {
		recs, err = compileVetFiles(ctx, u.cfg, e.files(u.cfg), e.dir, frontEnd(ctx))
	} else {
		recs, err = compileOverlay(ctx, pass, e.written, e.dir)
	}
	if err != nil {
		return nil, err
	}
	e.restore(recs)
	return recs, nil
}

// InliningEdited is like CompileEdited for the compiler's inlining
// decisions alone: it returns a CanInline or CannotInline record, with
// the cost the compiler measured, for each function declared at one of
// the positions of want (File the original file name, Line the line of
// the declaration in the edited file); the functions of keep must include
// them. The compiler prints its decisions (-m=2) rather than writing its
// log, and is stopped as soon as it has printed those of want, before
// escape analysis and code generation: on nats-server's server package
// that is under half of the compile.
//
// The go command's compile is watched through goadvise's -toolexec
// wrapper (see [toolexec.Serve]); in a program that does not serve as
// one, the edited package is compiled whole, as CompileEdited does.
func InliningEdited(ctx context.Context, pass *analysis.Pass, replace map[string][]byte, keep []*types.Func, want []Position) ([]Record, error) {
	ctx, cancel := withRun(ctx)
	defer cancel()
	wrapper := toolexec.Program()
	unit := unitFor(pass.Pkg.Path())
	if unit == nil && (wrapper == "" || strings.Contains(os.Getenv("GOFLAGS"), "-toolexec")) {
		recs, err := CompileEdited(ctx, pass, replace, keep)
		if err != nil {
			return nil, err
		}
		return inliningAt(recs, want), nil
	}
	e, err := writeEdited(pass, replace, keep)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(e.dir)
	var keys []string
	for _, p := range want {
		if k := toolexec.Key(p.File, p.Line); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	var lines []string
	if unit != nil {
		lines, err = watchVetFiles(ctx, unit.cfg, e.files(unit.cfg), e.dir, keys)
	} else {
		lines, err = watchOverlay(ctx, pass, e.written, e.dir, wrapper, keys)
	}
	if err != nil {
		return nil, err
	}
	files := make(map[string]string) // base name -> original file
	for _, f := range pass.Files {
		name := pass.Fset.File(f.FileStart).Name()
		files[filepath.Base(name)] = name
	}
	var recs []Record
	for _, l := range lines {
		if rec, ok := inliningRecord(l, files); ok {
			recs = append(recs, rec)
		}
	}
	return recs, nil
}

// inliningStops counts the compiles that InliningEdited stopped after
// inlining, for tests.
var inliningStops atomic.Int64

// inliningAt returns the inlining decisions of recs about the functions
// declared at the positions of want.
func inliningAt(recs []Record, want []Position) []Record {
	at := make(map[string]bool, len(want))
	for _, p := range want {
		at[toolexec.Key(p.File, p.Line)] = true
	}
	var out []Record
	for _, r := range recs {
		if (r.Kind == CanInline || r.Kind == CannotInline) && at[toolexec.Key(r.Pos.File, r.Pos.Line)] {
			out = append(out, r)
		}
	}
	return out
}

// inliningRecord parses a line of -m=2 output about a function's
// inlining (a [toolexec.Decision]) into a record, naming the file by the
// package's file of the same base name.
func inliningRecord(s string, files map[string]string) (Record, bool) {
	d, ok := toolexec.ParseDecision(s)
	if !ok {
		return Record{}, false
	}
	file := d.File
	if f, ok := files[filepath.Base(file)]; ok {
		file = f
	}
	rec := Record{Kind: CannotInline, Pos: Position{File: file, Line: d.Line, Col: d.Col}, Message: "cannot inline " + d.Text}
	if d.Can {
		rec.Message = "can inline " + d.Text
		// "F with cost 4 as: func(int) int { ... }"
		rec.Kind = CanInline
		name, after, _ := strings.Cut(d.Text, " with cost ")
		rec.Func = name
		c, _, _ := strings.Cut(after, " ")
		rec.Cost, _ = strconv.Atoi(c)
	} else {
		// "F: function too complex: cost 159 exceeds budget 80"
		name, reason, _ := strings.Cut(d.Text, ": ")
		rec.Func, rec.Reason = name, reason
		rec.Cost, rec.Budget = tooComplex(reason)
	}
	return rec, true
}

// editedFiles are an edited package's files, written out for the
// compiler.
type editedFiles struct {
	dir     string            // holds the replacements; removed by the caller
	written map[string]string // original file -> its replacement
}

// writeEdited writes the replaced files of pass (and, if keep is not nil,
// the stubbed files: see CompileEdited) to a new directory.
func writeEdited(pass *analysis.Pass, replace map[string][]byte, keep []*types.Func) (*editedFiles, error) {
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
	e := &editedFiles{dir: dir, written: make(map[string]string)}
	// Each replaced file keeps its base name, in a directory of its own,
	// so that the records name it as the original.
	for orig, content := range replace {
		sub, err := os.MkdirTemp(dir, "f")
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		name := filepath.Join(sub, filepath.Base(orig))
		if err := os.WriteFile(name, content, 0o666); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("writing the edited %s: %w", filepath.Base(orig), err)
		}
		e.written[orig] = name
	}
	return e, nil
}

// files returns the files of the vet unit cfg to compile, the edited ones
// replaced.
func (e *editedFiles) files(cfg *vetConfigFile) []string {
	files := nonTestFiles(cfg.GoFiles)
	for i, f := range files {
		if r, ok := e.written[f]; ok {
			files[i] = r
		}
	}
	return files
}

// restore gives the records of replaced files their original names.
func (e *editedFiles) restore(recs []Record) {
	back := make(map[string]string)
	for orig, r := range e.written {
		back[r] = orig
	}
	for i := range recs {
		if orig, ok := back[recs[i].Pos.File]; ok {
			recs[i].Pos.File = orig
		}
	}
}

// compileOverlay compiles the package of pass with go list -export and
// the files of written in an -overlay, logging under dir.
func compileOverlay(ctx context.Context, pass *analysis.Pass, written map[string]string, dir string) ([]Record, error) {
	logDir := filepath.Join(dir, "log")
	// The fresh log directory makes the compile action new: the go
	// command cannot reuse a cached compile, which would write no log.
	cmd, err := overlayCmd(ctx, pass, written, dir, "-json=0,"+logDir)
	if err != nil {
		return nil, err
	}
	if err := runOverlay(cmd, pass.Pkg.Path()); err != nil {
		return nil, err
	}
	return parseLogDir(logDir, pass.Pkg.Path())
}

// watchOverlay compiles the package of pass as compileOverlay does, with
// -m=2 instead of the log and through the -toolexec wrapper, and returns
// the compiler's inlining decisions about the declarations of want (see
// [toolexec.Watch]).
func watchOverlay(ctx context.Context, pass *analysis.Pass, written map[string]string, dir, wrapper string, want []string) ([]string, error) {
	// -m=2 without the log: the compile action differs from any cached
	// one (the overlay makes it new anyway).
	cmd, err := overlayCmd(ctx, pass, written, dir, "-m=2")
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "inlining")
	spec := &toolexec.Inlining{Package: pass.Pkg.Path(), Out: out, Want: want}
	env, err := spec.Env()
	if err != nil {
		return nil, err
	}
	cmd.Env = append(cmd.Environ(), env)
	// The wrapper does not change the go command's cache keys (they
	// use the compiler's own -V=full): dependencies are still reused.
	cmd.Args = slices.Insert(cmd.Args, 2, "-toolexec="+gocmd.Quote(wrapper))
	runErr := runOverlay(cmd, pass.Pkg.Path())
	data, err := os.ReadFile(out)
	if err != nil && runErr != nil {
		return nil, runErr
	}
	if err != nil {
		return nil, fmt.Errorf("the compile of %s was not watched: %v", pass.Pkg.Path(), err)
	}
	lines := strings.Split(string(data), "\n")
	if len(data) == 0 {
		lines = nil
	}
	if runErr != nil && len(lines) < len(want) {
		// The wrapper stops the compile (a failure, for the go command)
		// only once it has every decision.
		return nil, runErr
	}
	if runErr != nil {
		inliningStops.Add(1)
	}
	return lines, nil
}

// overlayCmd returns the go list -export command that compiles the
// package of pass with the files of written in an -overlay (written to
// dir) and the compiler flags gcflags for the package.
func overlayCmd(ctx context.Context, pass *analysis.Pass, written map[string]string, dir, gcflags string) (*exec.Cmd, error) {
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
	args := []string{"list", "-e", "-export", "-buildvcs=false", "-json=ImportPath,Error,DepsErrors", "-overlay=" + overlay}
	if w := openWarm.Load(); w != nil {
		// The flags of its dependencies, for the go command to reuse
		// Warm's compiles of them. The package's own flag comes last,
		// and the go command gives a package the last flag that
		// matches it.
		args = append(args, w.FlagsFor([]string{path})...)
	}
	args = append(args, "-gcflags="+path+"="+gocmd.Quote(gcflags)+" -dwarf=false", "--")
	args = append(args, opts.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	gocmd.InterruptOnCancel(cmd)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	return cmd, nil
}

// runOverlay runs the command of overlayCmd for the package path, and
// says why it failed.
func runOverlay(cmd *exec.Cmd, path string) error {
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	runErr := gocmd.Run(cmd)
	failed, err := listErrors(bytes.NewReader(out.Bytes()))
	if err != nil {
		return fmt.Errorf("go list -export: %v", err)
	}
	if msg, ok := failed[path]; ok {
		return fmt.Errorf("the edited %s does not compile: %s", path, msg)
	}
	if runErr != nil {
		return fmt.Errorf("go list -export %s: %v: %s", path, runErr, firstLines(strings.TrimSpace(stderr.String()), 10))
	}
	return nil
}
