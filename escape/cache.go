package escape

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// CacheDir returns the directory of goadvise's cache: $GOADVISE_CACHE if
// set, else os.UserCacheDir()/goadvise.
func CacheDir() (string, error) {
	if d := os.Getenv("GOADVISE_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locating the cache directory (set GOADVISE_CACHE): %w", err)
	}
	return filepath.Join(d, "goadvise"), nil
}

// CleanCache removes everything in goadvise's cache directory.
func CleanCache() error {
	dir, err := CacheDir()
	if err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cleaning cache: %w", err)
	}
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("cleaning cache: %w", err)
		}
	}
	return nil
}

// cacheFile returns the file holding the records for key.
func cacheFile(key string) (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "escape", key[:2], key+".gob"), nil
}

// cacheGet returns the cached records for key. A missing, unreadable or
// corrupt entry is a miss.
func cacheGet(key string) ([]Record, bool) {
	if key == "" {
		return nil, false
	}
	name, err := cacheFile(key)
	if err != nil {
		return nil, false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	var recs []Record
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&recs); err != nil {
		return nil, false
	}
	return recs, true
}

// cacheHas reports whether records for key are cached.
func cacheHas(key string) bool {
	if key == "" {
		return false
	}
	name, err := cacheFile(key)
	if err != nil {
		return false
	}
	_, err = os.Stat(name)
	return err == nil
}

// cachePut stores the records for key, atomically, and reports whether
// it could. Failures are otherwise ignored: the cache only saves time.
func cachePut(key string, recs []Record) bool {
	if key == "" {
		return false
	}
	name, err := cacheFile(key)
	if err != nil {
		return false
	}
	var buf bytes.Buffer
	if recs == nil {
		recs = []Record{}
	}
	if err := gob.NewEncoder(&buf).Encode(recs); err != nil {
		return false
	}
	return writeFileAtomic(name, buf.Bytes()) == nil
}

// writeFileAtomic writes data to a temporary file in name's directory and
// renames it to name, so readers never see a partial file.
func writeFileAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
