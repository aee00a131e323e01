package pgo

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// checkOneLine fails unless err is a one-line error naming name and
// containing want.
func checkOneLine(t *testing.T, err error, name, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want one containing %q", name, want)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, name) || !strings.Contains(msg, want) {
		t.Errorf("error %q: want one line naming %s and containing %q", msg, name, want)
	}
}

func gz(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func TestReadBadInputs(t *testing.T) {
	fx := fixture(t)
	good, err := os.ReadFile(fx.cpu)
	if err != nil {
		t.Fatal(err)
	}
	raw := new(bytes.Buffer)
	readProfile(t, fx.cpu).WriteUncompressed(raw)

	// An unsymbolized copy: locations keep addresses only.
	unsym := readProfile(t, fx.cpu)
	for _, l := range unsym.Location {
		l.Line = nil
	}
	unsym.Function = nil
	for _, m := range unsym.Mapping {
		m.HasFunctions, m.HasFilenames, m.HasLineNumbers, m.HasInlineFrames = false, false, false, false
	}
	var unsymBuf bytes.Buffer
	unsym.Write(&unsymBuf)

	// A copy without start lines, as from Go before 1.20.
	nostart := readProfile(t, fx.cpu)
	for _, f := range nostart.Function {
		f.StartLine = 0
	}
	var nostartBuf bytes.Buffer
	nostart.Write(&nostartBuf)

	heap, err := os.ReadFile(fx.heap)
	if err != nil {
		t.Fatal(err)
	}
	bomb := gz(t, make([]byte, 8<<20))

	for _, tc := range []struct {
		name, data, want string
		pgo              bool // the error comes from CheckPGO, not Read
	}{
		{"corrupt", "this is not a profile at all, just text", "not a pprof profile", false},
		{"corrupt-proto", string(raw.Bytes()[:len(raw.Bytes())/2]) + "\xff\xff\xff", "not a pprof profile", false},
		{"truncated", string(good[:len(good)/2]), "truncated or corrupt gzip data", false},
		{"empty", "", "empty profile", false},
		{"bomb", string(bomb), "larger than 1048576 bytes after decompression", false},
		{"heap", string(heap), "not a CPU profile", true},
		{"unsymbolized", unsymBuf.String(), "not symbolized", true},
		{"nostartline", nostartBuf.String(), "no start_line", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), tc.name+".pprof")
			if err := os.WriteFile(name, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Read(context.Background(), name, OpenOptions{MaxSize: 1 << 20})
			if !tc.pgo {
				checkOneLine(t, err, name, tc.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Merge reports the CheckPGO problem with the file's name.
			_, _, err = Merge(context.Background(), []string{name}, MergeOptions{})
			checkOneLine(t, err, name, tc.want)
			_ = p
		})
	}
}

func TestReadPlainAndDirectory(t *testing.T) {
	fx := fixture(t)
	dir := t.TempDir()
	var raw bytes.Buffer
	readProfile(t, fx.cpu).WriteUncompressed(&raw)
	os.WriteFile(filepath.Join(dir, "a.pprof"), raw.Bytes(), 0o644)
	data, _ := os.ReadFile(fx.cpu)
	os.WriteFile(filepath.Join(dir, "b.pprof"), data, 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden"), []byte("junk"), 0o644)
	var names []string
	for p, err := range Open(context.Background(), dir, OpenOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if Inspect(p.Profile).Kind != CPU {
			t.Errorf("%s: kind %v", p.Name, Inspect(p.Profile).Kind)
		}
		names = append(names, filepath.Base(p.Name))
	}
	if strings.Join(names, " ") != "a.pprof b.pprof" {
		t.Errorf("Open(dir) read %v, want a.pprof b.pprof", names)
	}
	_, err := Expand([]string{filepath.Join(dir, "missing")})
	checkOneLine(t, err, "missing", "no such file")
}

// busy burns CPU until stop is closed, so that a CPU profile of this
// process has samples.
func busy(stop chan struct{}) {
	x := 0
	for {
		select {
		case <-stop:
			return
		default:
		}
		for i := 0; i < 1e5; i++ {
			x = x*31 + i
		}
		_ = x
	}
}

func TestReadHTTP(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(gz(t, make([]byte, 4<<20)))
	})
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	defer srv.Close()
	ctx := context.Background()

	stop := make(chan struct{})
	go busy(stop)
	u := srv.URL + "/debug/pprof/profile?seconds=1"
	p, err := Read(ctx, u, OpenOptions{})
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	if ws, err := CheckPGO(p.Profile); err != nil || Inspect(p.Profile).Samples == 0 {
		t.Errorf("profile from %s: %v (warnings %v, %d samples)", u, err, ws, Inspect(p.Profile).Samples)
	}
	if !strings.Contains(p.Name, "/debug/pprof/profile") {
		t.Errorf("Name = %q", p.Name)
	}

	_, err = Read(ctx, srv.URL+"/nothing", OpenOptions{})
	checkOneLine(t, err, srv.URL+"/nothing", "HTTP status 404 Not Found")

	_, err = Read(ctx, srv.URL+"/slow", OpenOptions{Timeout: 200 * time.Millisecond})
	checkOneLine(t, err, srv.URL+"/slow", "no answer within 200ms")

	_, err = Read(ctx, srv.URL+"/big", OpenOptions{MaxSize: 1 << 20})
	checkOneLine(t, err, srv.URL+"/big", "after decompression")
}

// FuzzReadData checks that no input makes the reader panic, and that what
// it accepts is a valid profile that can be written and read back.
func FuzzReadData(f *testing.F) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10000000,
	}
	fn := &profile.Function{ID: 1, Name: "main.f", SystemName: "main.f", Filename: "/x/main.go", StartLine: 3}
	loc := &profile.Location{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fn, Line: 5}}}
	p.Function = []*profile.Function{fn}
	p.Location = []*profile.Location{loc}
	p.Sample = []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1, 10000000}}}
	var zipped, plain bytes.Buffer
	p.Write(&zipped)
	p.WriteUncompressed(&plain)
	f.Add(zipped.Bytes())
	f.Add(plain.Bytes())
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadData(data, 1<<20)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error has several lines: %q", err)
			}
			return
		}
		NewHotness(p)
		if _, err := CheckPGO(p); err == nil {
			m := newMerger(MergeOptions{})
			m.add(p)
			var b bytes.Buffer
			if err := m.finish().Write(&b); err != nil {
				t.Fatalf("merged profile cannot be written: %v", err)
			}
			if _, err := ReadData(b.Bytes(), 0); err != nil {
				t.Fatalf("merged profile does not read back: %v", err)
			}
		}
		CallEdges(p)
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatalf("accepted profile cannot be written: %v", err)
		}
		if _, err := ReadData(b.Bytes(), 0); err != nil {
			t.Fatalf("accepted profile does not read back: %v", err)
		}
	})
}
