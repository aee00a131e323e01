// Package frontend builds and finds goadvise's copy of the toolchain's
// compiler that stops after its front end.
//
// Every decision goadvise reads from the compiler's optimization log
// (inlining, escape analysis, the explanations of leaks and escapes) is
// made in the compiler's front end; only the bounds-check, nil-check and
// large-copy records come from its back end, which compiles each function
// to machine code and takes most of a compile's time. The compiler has no
// flag to stop before the back end, and it writes its log only at the end
// of a compile. So goadvise builds the toolchain's own cmd/compile, from
// the toolchain's sources, with one change to its main function: right
// after escape analysis it writes the log and exits. The decisions are
// the compiler's, made by the same code; the copy writes no object file.
// A second change, made only where escape analysis reads as expected,
// leaves out of the log how each leaking parameter flows to its leak,
// which goadvise does not read and which was most of the copy's work on
// large packages.
//
// The copy is built once per toolchain (about a minute of CPU the first
// time, a link afterwards while the go command's build cache holds its
// packages) into goadvise's cache directory. [Compiler] never waits for
// another process's build: until the copy exists, callers compile with
// the toolchain's compiler, as before.
package frontend

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/gocmd"
)

// patchVersion changes when the change to the compiler changes, so that
// a copy built with an older change is not used.
const patchVersion = "3"

// anchor is the statement of the compiler's main function after which
// the copy writes its log and exits: the log of the loop variables'
// transformations, which follows escape analysis, where the back end
// begins.
const anchor = "\tloopvar.LogTransformations(transformed)\n"

// stop is inserted after anchor. logopt, base and os are imported by the
// compiler's main.go.
const stop = "\tlogopt.FlushLoggedOpts(base.Ctxt, base.Ctxt.Pkgpath) // goadvise: front end only\n" +
	"\tbase.ExitIfErrors()\n" +
	"\tbase.FlushErrors()\n" +
	"\tbase.Exit(0)\n"

// leakFlow is the statement of escape analysis (escape/solve.go) that
// explains, for the log, how a parameter flows to where it leaks, in the
// block that logs the leak. goadvise reads no leak's flow (optlog drops
// it as it parses), and computing and writing them was most of the
// copy's work on large packages: compiling go/types took 2.5 s of CPU,
// 330 MB and a 173 MB log with them, 0.5 s, 95 MB and 7 MB without.
const leakFlow = "\t\t\t\t\texplanation := b.explainPath(root, l)\n" +
	"\t\t\t\t\tif logopt.Enabled() {\n" +
	"\t\t\t\t\t\tvar e_curfn *ir.Func // TODO(mdempsky): Fix.\n" +
	"\t\t\t\t\t\tlogopt.LogOpt(l.n.Pos(), \"leak\","

// noLeakFlow replaces the first line of leakFlow: the flow is computed
// only for -m=2, which prints it.
const noLeakFlow = "\t\t\t\t\tvar explanation []*logopt.LoggedOpt // goadvise: no leak flows in the log\n" +
	"\t\t\t\t\tif base.Flag.LowerM >= 2 {\n" +
	"\t\t\t\t\t\texplanation = b.explainPath(root, l)\n" +
	"\t\t\t\t\t}\n"

// ErrOff is returned by [Compiler] when GOADVISE_FRONTEND=off.
var ErrOff = errors.New("GOADVISE_FRONTEND=off")

// ErrBusy is returned by [Compiler] when another process is building the
// copy.
var ErrBusy = errors.New("another process is building the front-end compiler")

// Compiler returns the path of the front-end copy of the compiler in
// tooldir (the toolchain's GOTOOLDIR), building it first if no other
// process is building it (then it returns [ErrBusy]). Any other error
// says why the copy cannot be built; the caller compiles with the
// toolchain's compiler instead. A build that failed is not tried again:
// its error is kept beside the copy's path (removing goadvise's cache
// clears it), and only the call that tried it returns an error whose
// first failed is true.
//
// GOADVISE_FRONTEND=off turns the copy off ([ErrOff]).
func Compiler(ctx context.Context, tooldir string) (path string, first bool, err error) {
	if os.Getenv("GOADVISE_FRONTEND") == "off" {
		return "", false, ErrOff
	}
	real := filepath.Join(tooldir, "compile"+exeSuffix())
	key, err := keyOf(real)
	if err != nil {
		return "", false, err
	}
	root, err := cache.Dir()
	if err != nil {
		return "", false, err
	}
	path = filepath.Join(root, "frontend", key, "compile"+exeSuffix())
	failed := filepath.Join(root, "frontend", key, "failed")
	if ok, err := built(path, failed); ok {
		return path, false, nil
	} else if err != nil {
		return "", false, err
	}
	unlock, ok, err := cache.TryLock("frontend-" + key)
	if err != nil {
		return "", false, err
	}
	if !ok {
		return "", false, ErrBusy
	}
	defer unlock()
	if ok, err := built(path, failed); ok { // by the process that held the lock
		return path, false, nil
	} else if err != nil {
		return "", false, err
	}
	if err := build(ctx, real, path); err != nil {
		err = fmt.Errorf("building the front-end compiler: %w", err)
		if ctx.Err() == nil && os.MkdirAll(filepath.Dir(failed), 0o777) == nil {
			atomicfile.WriteFile(failed, []byte(err.Error()), atomicfile.Replace)
		}
		return "", true, err
	}
	return path, false, nil
}

// keyOf returns the key of the copy of the compiler real: its path,
// size and modification time, and the change made to it.
func keyOf(real string) (string, error) {
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("front-end compiler: %w", err)
	}
	h := sha256.Sum256(fmt.Appendf(nil, "goadvise-frontend %s\n%s %d %d\n", patchVersion, real, fi.Size(), fi.ModTime().UnixNano()))
	return hex.EncodeToString(h[:12]), nil
}

// built reports whether the copy at path exists, or else the error kept
// in failed by a build that failed.
func built(path, failed string) (bool, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return true, nil
	}
	if msg, err := os.ReadFile(failed); err == nil {
		return false, errors.New(string(msg))
	}
	return false, nil
}

// build builds the front-end copy of the compiler real at path.
func build(ctx context.Context, real, path string) error {
	// GOTOOLDIR is $GOROOT/pkg/tool/$GOOS_$GOARCH.
	goroot := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(real))))
	mainGo := filepath.Join(goroot, "src", "cmd", "compile", "internal", "gc", "main.go")
	src, err := os.ReadFile(mainGo)
	if err != nil {
		return err
	}
	patched, err := patch(src)
	if err != nil {
		return fmt.Errorf("%s: %w", mainGo, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	patchedGo := filepath.Join(work, "main.go")
	if err := os.WriteFile(patchedGo, patched, 0o666); err != nil {
		return err
	}
	replace := map[string]string{mainGo: patchedGo}
	// Leaving out the leaks' flows only saves work: a toolchain whose
	// escape analysis reads otherwise gets a copy that writes them.
	solveGo := filepath.Join(goroot, "src", "cmd", "compile", "internal", "escape", "solve.go")
	if src, err := os.ReadFile(solveGo); err == nil {
		if patched, ok := patchLeaks(src); ok {
			patchedSolve := filepath.Join(work, "solve.go")
			if err := os.WriteFile(patchedSolve, patched, 0o666); err != nil {
				return err
			}
			replace[solveGo] = patchedSolve
		}
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return err
	}
	overlayFile := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o666); err != nil {
		return err
	}
	tmp := filepath.Join(work, "compile"+exeSuffix())
	goBin := filepath.Join(goroot, "bin", "go"+exeSuffix())
	cmd := exec.CommandContext(ctx, goBin, "build", "-overlay="+overlayFile, "-o", tmp, "cmd/compile")
	gocmd.InterruptOnCancel(cmd)
	cmd.Dir = work
	// The copy runs on this machine, and is built as the toolchain's
	// own: none of the settings for the user's build apply to it.
	cmd.Env = append(os.Environ(), "GOROOT="+goroot, "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=",
		"GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH, "GOEXPERIMENT=", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := gocmd.Run(cmd); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(gocmd.Tail(msg, 5))
		}
		return err
	}
	// The copy must be the same compiler: its version line, after the
	// program's name, must be the toolchain's.
	want, err := version(ctx, real)
	if err != nil {
		return err
	}
	got, err := version(ctx, tmp)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("the copy says %q, the toolchain's compiler %q", got, want)
	}
	return os.Rename(tmp, path)
}

// patch returns the compiler's main.go with the stop after escape
// analysis.
func patch(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(anchor)); n != 1 {
		return nil, fmt.Errorf("found %q %d times, want once (a toolchain goadvise does not know)", strings.TrimSpace(anchor), n)
	}
	return bytes.Replace(src, []byte(anchor), []byte(anchor+stop), 1), nil
}

// patchLeaks returns escape analysis's solve.go without the computation
// of the leaks' flows for the log (see leakFlow), or false if the source
// does not have it exactly once.
func patchLeaks(src []byte) ([]byte, bool) {
	if bytes.Count(src, []byte(leakFlow)) != 1 {
		return nil, false
	}
	_, rest, _ := strings.Cut(leakFlow, "\n")
	return bytes.Replace(src, []byte(leakFlow), []byte(noLeakFlow+rest), 1), true
}

// version returns what compile -V=full prints after the program's name.
func version(ctx context.Context, compiler string) (string, error) {
	out, err := exec.CommandContext(ctx, compiler, "-V=full").Output()
	if err != nil {
		return "", fmt.Errorf("%s -V=full: %w", compiler, err)
	}
	_, v, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return v, nil
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
