package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/report"
)

// cachedStaleness is staleness with a cache: pgo check loads and type-checks
// every package with its tests (go list -test -export -deps), which takes
// seconds on a module that the findings cache otherwise answers in a
// fraction of one. The answer depends only on the profile, the Go files of
// the packages' directories and goadvise itself, so it is keyed by their
// content and kept in the cache directory under staleness/.
func cachedStaleness(ps *report.ProfileStats, dir string, patterns []string, dirs map[string]string, version string) {
	key, ok := stalenessKey(ps, patterns, dirs, version)
	if !ok || os.Getenv("GOADVISE_NOCACHE") != "" {
		staleness(ps, dir, patterns)
		return
	}
	type entry struct {
		Match *float64 `json:"match"`
		Stale []string `json:"stale"`
	}
	c := cache.New("staleness")
	if data, ok := c.Get(key); ok {
		var e entry
		if json.Unmarshal(data, &e) == nil {
			ps.Match, ps.Stale = e.Match, e.Stale
			return
		}
	}
	staleness(ps, dir, patterns)
	data, err := json.Marshal(entry{ps.Match, ps.Stale})
	if err != nil {
		return
	}
	// A failure to write the cache only costs the next run the time.
	c.Put(key, data)
}

// stalenessKey hashes what the staleness of the profile depends on: the
// first profile's content, the patterns, the content of every Go file in
// the packages' directories (tests included: benchmarks are profiled),
// the Go version and goadvise's executable. It reports false when a
// source cannot be read or is not a file.
func stalenessKey(ps *report.ProfileStats, patterns []string, dirs map[string]string, version string) (string, bool) {
	if len(ps.Sources) == 0 || strings.Contains(ps.Sources[0], "://") || len(dirs) == 0 {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "staleness 1\ngo %s\npatterns %q\n", runtime.Version(), patterns)
	fmt.Fprintf(h, "exe %s\n", executable(version))
	if !hashFile(h, ps.Sources[0]) {
		return "", false
	}
	var ds []string
	for _, d := range dirs {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	ds = slices.Compact(ds)
	for _, d := range ds {
		names, err := filepath.Glob(filepath.Join(d, "*.go"))
		if err != nil {
			return "", false
		}
		for _, name := range names {
			if !hashFile(h, name) {
				return "", false
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// hashFile writes the name and content of a regular file to h.
func hashFile(h io.Writer, name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	fmt.Fprintf(h, "file %s\n", name)
	_, err = io.Copy(h, f)
	return err == nil
}
