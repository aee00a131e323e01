package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// What a package's benchmarks read decides whether its cached measurement
// still holds. The package's files and dependencies are its content key;
// its testdata tree and the environment variables the runtime reads
// itself are added to the key (see staticKey); the environment variables
// the benchmarks look up and the files they open or stat are recorded by
// the test binary itself, in the test log that -test.testlogfile asks for
// (the go command's test cache reads the same log), and stored with the
// measurement, which holds only while they are unchanged (see input).

// testlogMagic is the first line of the testing package's test log.
const testlogMagic = "# test log\n"

// runtimeEnv are the environment variables that change the measurements
// without the test log recording them: the runtime reads them itself.
var runtimeEnv = []string{"GODEBUG", "GOGC", "GOMAXPROCS", "GOMEMLIMIT"}

// An input is one thing a package's benchmarks read, and its state when
// they ran.
type input struct {
	Op    string // "getenv", "open" or "stat", as in the test log
	Name  string // the variable, or the file in the user's tree
	State string // see state
}

// A reads collects what the runs of one package's test binary read,
// from their test logs.
type reads struct {
	rel      *relocation // from the copy the binary runs in to the user's tree
	ops      map[[2]string]bool
	complete bool // every run ended through the testing package, which wrote its log
}

func newReads(rel *relocation) *reads {
	return &reads{rel: rel, ops: make(map[[2]string]bool), complete: true}
}

// add reads the test log of a run in dir that ended through the testing
// package (passed or failed). A log that is missing or malformed makes
// the reads incomplete.
func (r *reads) add(log, dir string) {
	data, err := os.ReadFile(log)
	if err != nil || !bytes.HasPrefix(data, []byte(testlogMagic)) || !bytes.HasSuffix(data, []byte("\n")) {
		r.complete = false
		return
	}
	pwd := dir
	for _, line := range strings.Split(string(data[len(testlogMagic):]), "\n") {
		if line == "" {
			continue
		}
		op, name, ok := strings.Cut(line, " ")
		if !ok {
			r.complete = false
			return
		}
		switch op {
		case "getenv":
			r.ops[[2]string{op, name}] = true
		case "chdir":
			pwd = name // absolute
		case "open", "stat":
			if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
				// The CPU profiler looks for the build ID of the
				// kernel's mappings, [vdso] and [vsyscall]: no file.
				continue
			}
			if !filepath.IsAbs(name) {
				name = filepath.Join(pwd, name)
			}
			// Files outside the copy of the module (the toolchain's,
			// the system's, the run's temporary files) are not
			// checked, as the go command does not check those outside
			// the module.
			if user, ok := r.rel.user(filepath.Clean(name)); ok {
				r.ops[[2]string{op, user}] = true
			}
		default:
			r.complete = false
			return
		}
	}
}

// inputs returns the inputs recorded with their present state, sorted,
// and whether they can be trusted: false if a run ended without writing
// its log, or if a file was modified since the module was copied (so
// the benchmarks may have read an older version).
func (r *reads) inputs(copied time.Time) ([]input, bool) {
	if !r.complete {
		return nil, false
	}
	var in []input
	for k := range r.ops {
		s, mod := state(k[0], k[1])
		if mod.After(copied) {
			return nil, false
		}
		in = append(in, input{Op: k[0], Name: k[1], State: s})
	}
	slices.SortFunc(in, func(a, b input) int {
		return strings.Compare(a.Op+" "+a.Name, b.Op+" "+b.Name)
	})
	return in, true
}

// changed returns the first of the inputs whose state is no longer the
// one recorded, or "" if none is.
func changed(in []input) string {
	for _, i := range in {
		if s, _ := state(i.Op, i.Name); s != i.State {
			return i.Op + " " + i.Name
		}
	}
	return ""
}

// state returns the state of what op read: for an environment variable,
// whether it is set and a hash of its value (the cache holds no secret);
// for a file opened, its size and a hash of its content, or, for a
// directory, a hash of its entries' names and types; for a file stat'ed,
// its mode and size; for a file that cannot be read, why. It also returns
// the file's modification time.
func state(op, name string) (string, time.Time) {
	if op == "getenv" {
		v, ok := os.LookupEnv(name)
		if !ok {
			return "unset", time.Time{}
		}
		return "set " + hash([]byte(v)), time.Time{}
	}
	fi, err := os.Stat(name)
	if err != nil {
		return errState(err), time.Time{}
	}
	mod := fi.ModTime()
	switch {
	case op == "stat":
		s := fmt.Sprintf("%v %d", fi.Mode(), fi.Size())
		if li, err := os.Lstat(name); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(name)
			s += " link " + target
		}
		return s, mod
	case fi.IsDir():
		ents, err := os.ReadDir(name)
		if err != nil {
			return errState(err), mod
		}
		var b strings.Builder
		for _, e := range ents {
			fmt.Fprintf(&b, "%s %v\n", e.Name(), e.Type())
		}
		return "dir " + hash([]byte(b.String())), mod
	case fi.Mode().IsRegular():
		sum, err := hashFile(name)
		if err != nil {
			return errState(err), mod
		}
		return fmt.Sprintf("file %d %s", fi.Size(), sum), mod
	default:
		return fi.Mode().String(), mod
	}
}

// errState is the state of a file that cannot be read: what the error
// says, without the file's name.
func errState(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "absent"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return "error " + err.Error()
}

func hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

func hashFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// staticKey returns what the cache key of a package's measurements adds
// to the package's content key: the runtime's environment variables and
// the files of the testdata directory of dir, which a benchmark may read
// in a way the test log does not see (a program it runs, a file it maps).
// ok is false if the tree cannot be read.
func staticKey(dir string) (key string, ok bool) {
	var b strings.Builder
	for _, name := range runtimeEnv {
		s, _ := state("getenv", name)
		fmt.Fprintf(&b, "env %s %s\n", name, s)
	}
	root := filepath.Join(dir, "testdata")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.IsDir():
			fmt.Fprintf(&b, "dir %s\n", rel)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "link %s %s\n", rel, target)
			// A link's target is read, files or a tree: its state
			// counts, though WalkDir does not follow it.
			s, _ := state("open", path)
			fmt.Fprintf(&b, "target %s\n", s)
		default:
			s, _ := state("open", path)
			fmt.Fprintf(&b, "file %s %v %s\n", rel, d.Type(), s)
		}
		return nil
	})
	if err != nil {
		return "", false
	}
	return b.String(), true
}
