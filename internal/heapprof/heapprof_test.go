package heapprof

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

var sink [][]byte

// TestPeak checks that the profile is written while a large allocation is
// live, and kept after it is freed: it shows the peak.
func TestPeak(t *testing.T) {
	name := filepath.Join(t.TempDir(), "heap.pprof")
	stop := Peak(name, 10*time.Millisecond)
	for i := 0; i < 64; i++ {
		sink = append(sink, make([]byte, 1<<20))
	}
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	sink = nil
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	idx := -1
	for i, st := range p.SampleType {
		if st.Type == "inuse_space" {
			idx = i
		}
	}
	var inuse int64
	for _, s := range p.Sample {
		inuse += s.Value[idx]
	}
	if inuse < 32<<20 {
		t.Errorf("profile holds %d bytes in use, want the 64 MiB allocated at the peak", inuse)
	}
}

// TestStart checks that Start writes both profiles it is given, which
// parse as the profiles they are, and refuses a CPU profile it cannot
// create.
func TestStart(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "heap.pprof")
	stop, err := Start(cpu, mem)
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for name, typ := range map[string]string{cpu: "cpu", mem: "inuse_space"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, st := range p.SampleType {
			found = found || st.Type == typ
		}
		if !found {
			t.Errorf("%s has no %s samples: %v", name, typ, p.SampleType)
		}
	}
	if _, err := Start(filepath.Join(dir, "no", "such", "cpu.pprof"), ""); err == nil {
		t.Error("Start with a CPU profile in a missing directory: no error")
	}
	if stop, err := Start("", ""); err != nil || stop() != nil {
		t.Errorf("Start with no profiles: %v", err)
	}
}
