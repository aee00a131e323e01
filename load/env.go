package load

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// An Env is what go env says about the settings that change what the go
// command builds, and where its module and workspace are.
type Env struct {
	GOVERSION, GOOS, GOARCH, GOFLAGS, GOEXPERIMENT, CGO_ENABLED string
	GOAMD64, GOARM64, GOARM, GO386, GOMIPS, GOPPC64, GORISCV64  string
	GOMODCACHE, GOROOT, GOTOOLDIR                               string
	// GOMOD is the main module's go.mod (os.DevNull outside a module,
	// "" in GOPATH mode) and GOWORK the workspace's go.work ("" if none).
	GOMOD, GOWORK string
}

// envVars are the variables of an Env, in the order of its fields.
var envVars = []string{"GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED",
	"GOAMD64", "GOARM64", "GOARM", "GO386", "GOMIPS", "GOPPC64", "GORISCV64",
	"GOMODCACHE", "GOROOT", "GOTOOLDIR", "GOMOD", "GOWORK"}

// envs holds what ReadEnv read, by directory and environment.
var envs struct {
	sync.Mutex
	m map[string]*envRead
}

type envRead struct {
	done chan struct{}
	env  *Env
	err  error
}

// ReadEnv returns what go env says in dir with the environment env (nil
// for the process's). The go command runs once for a directory and an
// environment in a process: the stages of a run that need it (the
// findings cache's keys, the type sizes of the target, the compiler's
// settings) share what it said. A failure is not kept.
func ReadEnv(ctx context.Context, dir string, env []string) (*Env, error) {
	key := envKey(dir, env)
	envs.Lock()
	if envs.m == nil {
		envs.m = make(map[string]*envRead)
	}
	r := envs.m[key]
	if r == nil {
		r = &envRead{done: make(chan struct{})}
		envs.m[key] = r
		envs.Unlock()
		r.env, r.err = readEnv(ctx, dir, env)
		close(r.done)
		if r.err != nil {
			envs.Lock()
			delete(envs.m, key)
			envs.Unlock()
		}
		return r.env, r.err
	}
	envs.Unlock()
	select {
	case <-r.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if r.err != nil {
		return ReadEnv(ctx, dir, env)
	}
	return r.env, nil
}

// envKey identifies a directory and an environment: the process's, if
// env is nil, as it is now (a test may change it between runs), and the
// go.mod and go.work files that the go command finds from there, as they
// are now (one created or edited since can change what it says).
func envKey(dir string, env []string) string {
	if env == nil {
		env = os.Environ()
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	key := dir + "\x00" + strings.Join(env, "\x00")
	module, workspace := Roots(dir)
	for _, f := range [][2]string{{module, "go.mod"}, {workspace, "go.work"}} {
		if f[0] == "" {
			continue
		}
		name := filepath.Join(f[0], f[1])
		if fi, err := os.Stat(name); err == nil {
			key += fmt.Sprintf("\x00%s %d %d", name, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return key
}

func readEnv(ctx context.Context, dir string, env []string) (*Env, error) {
	out, err := gocmd.Output(ctx, dir, env, append([]string{"env", "-json"}, envVars...)...)
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	e := new(Env)
	if err := json.Unmarshal(out, e); err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	return e, nil
}

// Roots returns the directories of the module and of the workspace that
// dir is in, as the go command finds them from dir: that of the nearest
// go.mod file at or above dir ("" if none) and that of the nearest go.work
// file at or above dir ("" if none). It is goadvise's one way of finding
// them from the files (the go command's GOWORK and GOFLAGS=-modfile can
// say otherwise: [ReadEnv] has what it says).
func Roots(dir string) (module, workspace string) {
	for d := dir; ; {
		if module == "" && isFile(filepath.Join(d, "go.mod")) {
			module = d
		}
		if workspace == "" && isFile(filepath.Join(d, "go.work")) {
			workspace = d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return module, workspace
		}
		d = parent
	}
}

func isFile(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && !fi.IsDir()
}

// InModule returns an error, to print on one line, if packages matched by
// patterns in dir need a Go module and dir is not inside one: go list
// would fail with its own words for each package and goadvise would then
// report no findings in no packages. Patterns of the standard library
// ("fmt", "std") need no module; a workspace (go.work) or GOPATH mode
// (GO111MODULE=off) is left to the go command.
func InModule(dir string, patterns []string) error {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	need := false
	for _, p := range patterns {
		need = need || needsModule(p)
	}
	if !need {
		return nil
	}
	if module, _ := Roots(dir); module != "" {
		return nil
	}
	// No go.mod above dir: ask the go command, which knows of GOWORK,
	// GOFLAGS=-modfile and GO111MODULE.
	env, err := ReadEnv(context.Background(), dir, nil)
	if err != nil {
		return nil // the go command will say what is wrong
	}
	if env.GOMOD != os.DevNull || (env.GOWORK != "" && env.GOWORK != "off") {
		return nil
	}
	return fmt.Errorf("%s is not inside a Go module (no go.mod): run it in a module or pass package patterns of one", dir)
}

// needsModule reports whether a package pattern names packages of a
// module: a directory ("./...", "/src/x"), "all", or an import path whose
// first element has a dot ("example.com/x"), unlike the standard
// library's.
func needsModule(pattern string) bool {
	if pattern == "all" || pattern == "." || pattern == ".." || filepath.IsAbs(pattern) ||
		strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../") {
		return true
	}
	first, _, _ := strings.Cut(pattern, "/")
	return strings.Contains(first, ".")
}
