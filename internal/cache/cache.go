// Package cache is goadvise's cache directory: keyed entries of bytes in
// named subdirectories, each written atomically and verified when read,
// and the locks that keep concurrent runs on one module apart.
//
// The directory is $GOADVISE_CACHE, or goadvise in os.UserCacheDir(). Its
// root holds a CACHEDIR.TAG marker, so that [Clean] removes only what
// goadvise wrote and refuses a directory that goadvise did not create.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/goadvise/goadvise/internal/atomicfile"
)

// Names are the subdirectories of the cache: the ones [New] accepts and
// [Clean] removes.
var Names = []string{"benchprof", "escape", "findings", "frontend", "locks", "staleness"}

// Marker is the name of the file that marks a directory as goadvise's
// cache. Its content follows https://bford.info/cachedir/, so that backup
// tools skip the cache.
const Marker = "CACHEDIR.TAG"

const markerText = "Signature: 8a477f597d28d172789f06886806bc55\n" +
	"# This file is a cache directory tag created by goadvise.\n" +
	"# goadvise cache clean removes the directories benchprof, escape, findings, frontend, locks and staleness beside it.\n"

// format is the first word of an entry's header; a change of the entry
// format changes it.
const format = "goadvise-cache-v1"

// Dir returns the cache directory: $GOADVISE_CACHE if set, else goadvise
// in os.UserCacheDir().
func Dir() (string, error) {
	if d := os.Getenv("GOADVISE_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locating the cache directory (set GOADVISE_CACHE): %w", err)
	}
	return filepath.Join(d, "goadvise"), nil
}

// Executable identifies the running executable for cache keys: its path,
// size and modification time. Entries hold what goadvise computed (the
// records it parsed from the compiler's log, with their causes and
// explanations, as well as findings), so a key that includes it keeps a
// rebuilt or upgraded goadvise from reusing what an older one computed.
var Executable = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return fmt.Sprintf("%s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
})

// A Cache is one subdirectory of the cache directory.
type Cache struct {
	name string
}

// New returns the cache of the given name, one of [Names].
func New(name string) *Cache {
	if !slices.Contains(Names, name) {
		panic("cache: unknown cache " + strconv.Quote(name))
	}
	return &Cache{name: name}
}

// path returns the cache directory and the file of the entry for key.
func (c *Cache) path(key string) (root, name string, err error) {
	if len(key) < 2 || filepath.Base(key) != key {
		return "", "", fmt.Errorf("cache: bad key %q", key)
	}
	root, err = Dir()
	if err != nil {
		return "", "", err
	}
	return root, filepath.Join(root, c.name, key[:2], key+".v1"), nil
}

// Get returns the data stored under key. A missing entry is a miss; so is
// a damaged one (its header, length or checksum does not match), which is
// removed, with a warning (see [Warn]).
func (c *Cache) Get(key string) ([]byte, bool) {
	root, name, err := c.path(key)
	if err != nil {
		return nil, false
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	data, ok := verify(raw, key)
	if !ok {
		damaged(root, name)
		return nil, false
	}
	return data, true
}

// Has reports whether a sound entry is stored under key, as Get does.
func (c *Cache) Has(key string) bool {
	_, ok := c.Get(key)
	return ok
}

// Put stores data under key, atomically: a reader sees the old entry, the
// new one or none.
func (c *Cache) Put(key string, data []byte) error {
	root, name, err := c.path(key)
	if err != nil {
		return err
	}
	if err := ensureRoot(root); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	sum := sha256.Sum256(data)
	hdr := fmt.Sprintf("%s %s %d %x\n", format, key, len(data), sum)
	return atomicfile.WriteFile(name, append([]byte(hdr), data...), atomicfile.Replace)
}

// verify checks an entry's header against its payload and returns the
// payload.
func verify(raw []byte, key string) ([]byte, bool) {
	line, data, ok := bytes.Cut(raw, []byte("\n"))
	if !ok {
		return nil, false
	}
	f := bytes.Fields(line)
	if len(f) != 4 || string(f[0]) != format || string(f[1]) != key {
		return nil, false
	}
	n, err := strconv.Atoi(string(f[2]))
	if err != nil || n != len(data) {
		return nil, false
	}
	sum := sha256.Sum256(data)
	if string(f[3]) != hex.EncodeToString(sum[:]) {
		return nil, false
	}
	return data, true
}

// Warn prints a warning about the cache. It is a variable so that a
// program can send the warnings elsewhere.
var Warn = func(msg string) { fmt.Fprintf(os.Stderr, "goadvise: %s\n", msg) }

var warned sync.Map // cache directories warned about

// damaged removes a damaged entry and warns, once per cache directory
// and process: more damaged entries are recomputed silently.
func damaged(root, name string) {
	os.Remove(name)
	if _, dup := warned.LoadOrStore(root, true); !dup {
		Warn(fmt.Sprintf("cache entry %s is damaged; recomputing", name))
	}
}

var rooted sync.Map // cache directories known to exist with their marker

// ensureRoot creates the cache directory with its marker. An existing
// directory without the marker gets one only if it holds nothing but the
// cache's subdirectories (a cache of an older goadvise): a directory of
// other files is used but never marked, so that Clean refuses it.
func ensureRoot(root string) error {
	if _, ok := rooted.Load(root); ok {
		return nil
	}
	if err := os.MkdirAll(root, 0o777); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	for _, e := range ents {
		if e.Name() != Marker && !slices.Contains(Names, e.Name()) {
			rooted.Store(root, true)
			return nil
		}
	}
	err = atomicfile.WriteFile(filepath.Join(root, Marker), []byte(markerText), atomicfile.NoClobber)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("cache: %w", err)
	}
	rooted.Store(root, true)
	return nil
}

// marked reports whether root holds goadvise's marker.
func marked(root string) bool {
	data, err := os.ReadFile(filepath.Join(root, Marker))
	return err == nil && bytes.HasPrefix(data, []byte(markerText))
}

// Clean removes the cache: the subdirectories in [Names], the marker, and
// the directory if that leaves it empty. It refuses a non-empty directory without the marker, which goadvise did
// not create, and leaves any other file alone.
func Clean() error {
	root, err := Dir()
	if err != nil {
		return err
	}
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cleaning the cache: %w", err)
	}
	if !marked(root) {
		if len(ents) == 0 {
			return nil
		}
		return fmt.Errorf("%s is not goadvise's cache (it has no %s written by goadvise); not cleaning it", root, Marker)
	}
	for _, n := range Names {
		if err := os.RemoveAll(filepath.Join(root, n)); err != nil {
			return fmt.Errorf("cleaning the cache: %w", err)
		}
	}
	if err := os.Remove(filepath.Join(root, Marker)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cleaning the cache: %w", err)
	}
	rooted.Delete(root)
	os.Remove(root) // if empty
	return nil
}
