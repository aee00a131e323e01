package escape

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseLog feeds arbitrary bytes to the optimization log parser as if
// they were one file of the compiler's -json log: it must return records
// or an error, never panic. The seed corpus holds a real log of the demo's
// wire package and damaged versions of it.
func FuzzParseLog(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p := newParser()
		if err := p.parseFile(bytes.NewReader(data), "fuzz.json"); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error: %q", err)
			}
			return
		}
		for _, r := range p.finish() {
			if r.Pos.Line < 0 {
				t.Errorf("record with a negative line: %+v", r)
			}
		}
	})
}

// FuzzVetConfig feeds arbitrary bytes to UseVetConfig as a vet config
// file: it must accept it or give a one-line error naming the file.
func FuzzVetConfig(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func() { vetConfig, vetConfigPath = nil, "" }()
		name := filepath.Join(t.TempDir(), "vet.cfg")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		err := UseVetConfig(name)
		if err != nil && (!strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("error does not name the file in one line: %q", err)
		}
	})
}
