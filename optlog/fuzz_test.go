package optlog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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

// FuzzVetConfig feeds arbitrary bytes to ReadVetUnit as a vet config
// file: it must accept it or give a one-line error naming the file.
func FuzzVetConfig(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		name := filepath.Join(t.TempDir(), "vet.cfg")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadVetUnit(name)
		if err != nil && (!strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("error does not name the file in one line: %q", err)
		}
	})
}

// FuzzDecodeLine checks decodeLine against encoding/json: whenever it
// decodes a line, json.Unmarshal must decode the same line without error
// into the same diagnostic. The seeds are the lines of FuzzParseLog's
// corpus (real logs and damaged ones) and lines with escapes, numbers and
// keys that decodeLine must leave to encoding/json.
func FuzzDecodeLine(f *testing.F) {
	f.Add([]byte(`{"range":{"start":{"line":3,"character":6},"end":{"line":3,"character":6}},"severity":3,"code":"canInlineFunction","source":"go compiler","message":"cost: 4"}`))
	f.Add([]byte(`{"range":{"start":{"line":9,"character":2},"end":{"line":9,"character":2}},"severity":3,"code":"escape","source":"go compiler","message":"\u0026T{...} escapes to heap","relatedInformation":[{"location":{"uri":"file:///a/b%20c.go","range":{"start":{"line":9,"character":2},"end":{"line":9,"character":2}}},"message":"escflow:    flow: ~r0 = \u0026{storage for \u0026T{...}}:"}]}` + "\n"))
	f.Add([]byte(`{"range":{"start":{"line":1,"character":1},"end":{"line":1,"character":1}},"code":"x","message":"\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t é","relatedInformation":[]}`))
	f.Add([]byte(`{"range":{"start":{"line":01,"character":1.5}},"Code":"x","code":null}`))
	f.Add([]byte(`{"version":0,"package":"p","goos":"linux","goarch":"amd64","gc_version":"go1.26","file":"/x/a.go"}`))
	f.Add([]byte(`{"code":"a","code":"b"} x`))
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzParseLog", "*"))
	for _, name := range seeds {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		// A corpus file is "go test fuzz v1" then []byte("...").
		_, v, _ := strings.Cut(string(data), "\n")
		v = strings.TrimSpace(v)
		v = strings.TrimSuffix(strings.TrimPrefix(v, "[]byte("), ")")
		log, err := strconv.Unquote(v)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(log, "\n") {
			f.Add([]byte(line))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast logDiagnostic
		if !decodeLine(line, &fast) {
			return
		}
		var want logDiagnostic
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("decodeLine accepted %q, which encoding/json rejects: %v", line, err)
		}
		if !reflect.DeepEqual(fast, want) {
			t.Fatalf("decodeLine(%q) = %+v, encoding/json gives %+v", line, fast, want)
		}
	})
}
