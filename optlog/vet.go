package optlog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/frontend"
	"github.com/goadvise/goadvise/internal/toolexec"
)

// vetConfig is the part of the go vet configuration file (the JSON file
// that go vet passes to a -vettool) that compiling the unit needs.
type vetConfigFile struct {
	ID          string
	Dir         string
	ImportPath  string
	GoVersion   string
	GoFiles     []string
	NonGoFiles  []string
	ImportMap   map[string]string
	PackageFile map[string]string
	Standard    map[string]bool
	VetxOnly    bool
}

// A VetUnit is the package that go vet hands a vet tool to analyse, as
// the configuration file it passes the tool describes it.
type VetUnit struct {
	cfg *vetConfigFile

	once sync.Once     // starts the compile
	done chan struct{} // closed when the compile is done
	recs []Record
	hit  bool // the records came from the cache
	err  error
}

// ReadVetUnit reads the configuration file that go vet passes a vet tool
// (its last argument, a file ending in .cfg).
func ReadVetUnit(cfgPath string) (*VetUnit, error) {
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		return nil, fmt.Errorf("reading vet config: %w", err)
	}
	cfg := new(vetConfigFile)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("%s: malformed vet config: %v", cfgPath, err)
	}
	if cfg.ImportPath == "" || len(cfg.GoFiles) == 0 {
		return nil, fmt.Errorf("%s: vet config names no package or no Go files", cfgPath)
	}
	return &VetUnit{cfg: cfg, done: make(chan struct{})}, nil
}

// Dir returns the directory of the unit's package.
func (u *VetUnit) Dir() string { return u.cfg.Dir }

// FactsOnly reports whether go vet runs the unit only for the facts of a
// dependency, whose diagnostics it does not print.
func (u *VetUnit) FactsOnly() bool { return u.cfg.VetxOnly }

// SourceSize returns the total size in bytes of the unit's Go files,
// tests included, or -1 if a file cannot be read.
func (u *VetUnit) SourceSize() int64 {
	var n int64
	for _, f := range u.cfg.GoFiles {
		fi, err := os.Stat(f)
		if err != nil {
			return -1
		}
		n += fi.Size()
	}
	return n
}

// units are the vet units provided, by import path.
var units = struct {
	sync.Mutex
	m map[string]*VetUnit
}{m: make(map[string]*VetUnit)}

// Provide makes the unit's compiler decisions those the escape Analyzer
// gets for its package in this process, as [Preload] does for goadvise
// check's packages: the unit's files are compiled with exactly the export
// data go vet provides. With start, the compile starts now, in the
// background, so that the compiler runs while the unit is type-checked
// and analysed instead of after (go vet runs a unit's analysis while the
// go command waits for dependencies, and the compile fills the cores it
// leaves idle): give it when the escape Analyzer will run. Otherwise the
// unit is compiled when the Analyzer first asks. A unit run for facts
// only is not compiled.
func (u *VetUnit) Provide(start bool) {
	units.Lock()
	units.m[u.cfg.ImportPath] = u
	units.Unlock()
	if start && !u.cfg.VetxOnly {
		u.start()
	}
}

// forget undoes Provide (for tests).
func (u *VetUnit) forget() {
	units.Lock()
	defer units.Unlock()
	if units.m[u.cfg.ImportPath] == u {
		delete(units.m, u.cfg.ImportPath)
	}
}

// unitFor returns the vet unit provided for the package importPath, or
// nil.
func unitFor(importPath string) *VetUnit {
	units.Lock()
	defer units.Unlock()
	return units.m[importPath]
}

// start starts compiling the unit in the background, once.
func (u *VetUnit) start() {
	u.once.Do(func() {
		go func() {
			defer close(u.done)
			u.recs, u.hit, u.err = compileUnit(context.Background(), u.cfg)
		}()
	})
}

// result returns the unit's decisions for pass, compiling it if Provide
// did not start it.
func (u *VetUnit) result() *PackageResult {
	cfg := u.cfg
	res := &PackageResult{ImportPath: cfg.ImportPath, Files: nonTestFiles(cfg.GoFiles)}
	if cfg.VetxOnly {
		res.Err = "go vet asked for facts only; the compiler is not run for dependencies"
		return res
	}
	u.start()
	<-u.done
	if u.err != nil {
		res.Err = u.err.Error()
	} else {
		res.Records, res.Cached = u.recs, u.hit
	}
	store([]*PackageResult{res})
	return res
}

// nonTestFiles returns the files of files that are not _test.go files.
func nonTestFiles(files []string) []string {
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

// vetKey hashes what determines the compile of a vet unit and its parse:
// goadvise's executable, its files, the export data of its dependencies
// (whose build-cache file names are content hashes, so they also change
// with the toolchain), and the target.
func vetKey(cfg *vetConfigFile) string {
	h := sha256.New()
	fmt.Fprintf(h, "goadvise-escape-vet-v1\n%s\n%s\nexe %s\n", cfg.ImportPath, cfg.GoVersion, cache.Executable())
	for _, v := range []string{"GOOS", "GOARCH", "GOAMD64", "GOARM64", "GOARM", "GOEXPERIMENT", "GOFLAGS"} {
		fmt.Fprintf(h, "%s=%s\n", v, os.Getenv(v))
	}
	fmt.Fprintf(h, "%s/%s\n", runtime.GOOS, runtime.GOARCH)
	for _, f := range nonTestFiles(cfg.GoFiles) {
		data, err := os.ReadFile(f)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "file %s %x\n", f, sha256.Sum256(data))
	}
	var deps []string
	for p, f := range cfg.PackageFile {
		deps = append(deps, p+"="+f)
	}
	for a, b := range cfg.ImportMap {
		deps = append(deps, "map "+a+"="+b)
	}
	sort.Strings(deps)
	io.WriteString(h, strings.Join(deps, "\n"))
	return hex.EncodeToString(h.Sum(nil))
}

// compileUnit runs go tool compile on the unit's non-test files with the
// optimization log enabled and parses the log. The test variant of a
// package is compiled without its _test.go files (no analyzer reports on
// them, and they do not change the decisions in the other files), and an
// external test package is not compiled.
func compileUnit(ctx context.Context, cfg *vetConfigFile) ([]Record, bool, error) {
	files := nonTestFiles(cfg.GoFiles)
	if len(files) == 0 {
		return nil, false, nil
	}
	for _, f := range cfg.NonGoFiles {
		switch filepath.Ext(f) {
		case ".c", ".cc", ".cpp", ".cxx", ".m", ".h", ".hh", ".hpp", ".f", ".F", ".f90", ".swig", ".swigcxx", ".syso":
			return nil, false, fmt.Errorf("skipped: cgo/SWIG packages cannot be compiled from a vet config (%s)", filepath.Base(f))
		}
	}
	key := vetKey(cfg)
	if recs, ok := cacheGet(key); ok {
		return recs, true, nil
	}
	dir, err := os.MkdirTemp("", "goadvise-vet-")
	if err != nil {
		return nil, false, fmt.Errorf("creating compiler log directory: %w", err)
	}
	defer os.RemoveAll(dir)
	recs, err := compileVetFiles(ctx, cfg, files, dir, frontEnd(ctx))
	if err != nil {
		return nil, false, err
	}
	cachePut(key, recs)
	return recs, false, nil
}

// compileVetFiles compiles files as the vet unit cfg, with the
// optimization log written under dir, and parses the log. compiler is the
// compiler to run ("" for the toolchain's).
func compileVetFiles(ctx context.Context, cfg *vetConfigFile, files []string, dir, compiler string) ([]Record, error) {
	logDir := filepath.Join(dir, "log")
	// The compiler names each log file after a source file's base name,
	// and a file of another package compiled here (a generic function's)
	// can replace the log of the package's file of the same name (see
	// pkgLog.headers). Named apart by -trimpath, which rewrites the file
	// names the compiler records, the package's files cannot collide;
	// their records get their names back as the log is read.
	orig := make(map[string]string, len(files))
	rewrites := make([]string, len(files))
	for i, f := range files {
		renamed := filepath.Join(filepath.Dir(f), fmt.Sprintf("goadvise%d~%s", i, filepath.Base(f)))
		orig[renamed] = f
		rewrites[i] = f + "=>" + renamed
	}
	cmd, err := vetCompileCmd(ctx, cfg, files, dir, compiler, "-json=0,"+logDir, "-trimpath="+strings.Join(rewrites, ";"))
	if err != nil {
		return nil, err
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := strings.TrimSpace(string(out))
		for renamed, f := range orig {
			msg = strings.ReplaceAll(msg, renamed, f)
		}
		return nil, compileError(msg)
	}
	l, err := readLog([]string{logDir}, cfg.ImportPath, func(p *Position) {
		if f, ok := orig[p.File]; ok {
			p.File = f
		}
	})
	if err != nil {
		return nil, err
	}
	return l.records, nil
}

// frontEnd returns the path of goadvise's copy of the toolchain's
// compiler (go vet's GOTOOLDIR) that stops after escape analysis (see
// package frontend), if there is one or this process can build it, or ""
// to compile with the toolchain's compiler. The unit's compile exists for
// the log alone, so the back end, most of the compile's time, is work
// nothing reads.
func frontEnd(ctx context.Context) string {
	tooldir := os.Getenv("GOTOOLDIR")
	if tooldir == "" {
		return ""
	}
	return frontEndIn(ctx, tooldir)
}

// frontEndIn returns the path of the front-end copy of the compiler in
// tooldir, as frontEnd does. It reports a failure to build the copy once.
func frontEndIn(ctx context.Context, tooldir string) string {
	fe, first, err := frontend.Compiler(ctx, tooldir)
	if err != nil {
		if first {
			fmt.Fprintf(os.Stderr, "goadvise: %v; compiling with the toolchain's compiler\n", err)
		}
		return ""
	}
	return fe
}

// watchVetFiles compiles files as the vet unit cfg, with -m=2, and
// returns the compiler's inlining decisions about the declarations of
// want (see [toolexec.Watch]).
func watchVetFiles(ctx context.Context, cfg *vetConfigFile, files []string, dir string, want []string) ([]string, error) {
	cmd, err := vetCompileCmd(ctx, cfg, files, dir, "", "-m=2")
	if err != nil {
		return nil, err
	}
	lines, complete, output, err := toolexec.Watch(cmd, want)
	if err != nil {
		return nil, err
	}
	if !complete && !cmd.ProcessState.Success() {
		return nil, compileError(strings.TrimSpace(string(output)))
	}
	if complete {
		inliningStops.Add(1)
	}
	return lines, nil
}

// compileError is the error of a compile that failed with the output msg.
func compileError(msg string) error {
	if len(msg) > 2000 {
		msg = msg[:2000]
	}
	return fmt.Errorf("does not compile: %s", strings.ReplaceAll(msg, "\n", "; "))
}

// vetCompileCmd returns the command that compiles files as the vet unit
// cfg, with the extra compiler flags, writing its output under dir. It
// runs compiler, or the toolchain's compiler if that is "".
func vetCompileCmd(ctx context.Context, cfg *vetConfigFile, files []string, dir, compiler string, flags ...string) (*exec.Cmd, error) {
	var icfg bytes.Buffer
	var paths []string
	for a, b := range cfg.ImportMap {
		if a != b {
			paths = append(paths, "importmap "+a+"="+b)
		}
	}
	for p, f := range cfg.PackageFile {
		if f != "" { // unsafe has no export data
			paths = append(paths, "packagefile "+p+"="+f)
		}
	}
	sort.Strings(paths)
	for _, l := range paths {
		icfg.WriteString(l + "\n")
	}
	importcfg := filepath.Join(dir, "importcfg")
	if err := os.WriteFile(importcfg, icfg.Bytes(), 0o666); err != nil {
		return nil, err
	}
	args := []string{"tool", "compile", "-o", filepath.Join(dir, "out.a"), "-p", cfg.ImportPath,
		"-importcfg", importcfg, "-pack", "-nolocalimports",
		"-dwarf=false"} // nothing links the result: see compileFlags
	args = append(args, flags...)
	if lang := langVersion(cfg.GoVersion); lang != "" {
		args = append(args, "-lang="+lang)
	}
	if cfg.Standard[cfg.ImportPath] {
		args = append(args, "-std")
	}
	// The go command tells the compiler that it has the whole package
	// unless the package has assembly, or is one of the packages of the
	// standard library whose bodyless functions the runtime supplies.
	asm := cfg.Standard[cfg.ImportPath] && slices.Contains(runtimeSupplied, cfg.ImportPath)
	for _, f := range cfg.NonGoFiles {
		if strings.HasSuffix(f, ".s") {
			asm = true
		}
	}
	if !asm {
		args = append(args, "-complete")
	}
	// A large package's compile is the unit's longest step: let the
	// compiler's backend use the cores, as the go command does.
	if big(&target{files: files, std: cfg.Standard[cfg.ImportPath]}) {
		args = append(args, fmt.Sprintf("-c=%d", min(4, runtime.GOMAXPROCS(0))))
	}
	args = append(args, "--")
	args = append(args, files...)
	// go vet tells its tools where the toolchain's tools are; running the
	// compiler directly saves starting the go command for each unit.
	name := "go"
	if compiler != "" {
		name, args = compiler, args[2:]
	} else if dir := os.Getenv("GOTOOLDIR"); dir != "" {
		if c := filepath.Join(dir, "compile"); fileExists(c) {
			name, args = c, args[2:]
		}
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = cfg.Dir
	return cmd, nil
}

// runtimeSupplied are the packages of the standard library that declare
// functions the runtime supplies, which the go command compiles without
// -complete (cmd/go/internal/work's gc.go).
var runtimeSupplied = []string{"bytes", "internal/poll", "net", "os", "runtime/metrics", "runtime/pprof", "runtime/trace", "sync", "syscall", "time"}

func fileExists(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && !fi.IsDir()
}

// langVersion converts "go1.21.0" to "go1.21".
func langVersion(v string) string {
	if !strings.HasPrefix(v, "go1.") {
		return ""
	}
	parts := strings.SplitN(v, ".", 3)
	return parts[0] + "." + parts[1]
}
