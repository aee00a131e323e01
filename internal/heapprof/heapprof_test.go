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
