// Package heapprof writes profiles of goadvise itself, for its developers
// (check -cpuprofile and -memprofile, and the measurement scripts): a CPU
// profile, and a heap profile at the process's largest live heap, since a
// heap profile written at the end shows what is left, not what made the
// peak.
package heapprof

import (
	"bytes"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// Start starts the profiles that the files cpu and mem name, if they are
// not empty: a CPU profile written to cpu, and a heap profile written to
// mem at the largest live heap (see Peak), checked every 100 ms. The
// function it returns stops them and reports the first error in writing
// the heap profile.
func Start(cpu, mem string) (stop func() error, err error) {
	stopCPU := func() {}
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		stopCPU = func() { pprof.StopCPUProfile(); f.Close() }
	}
	stopMem := func() error { return nil }
	if mem != "" {
		stopMem = Peak(mem, 100*time.Millisecond)
	}
	return func() error {
		err := stopMem()
		stopCPU()
		return err
	}, nil
}

// Peak writes a heap profile to the file name whenever the live heap, as
// of the last garbage collection, is the largest seen so far, checking
// every interval, until the function it returns is called; that function
// reports the first error in writing the profile.
func Peak(name string, interval time.Duration) (stop func() error) {
	quit, done := make(chan struct{}), make(chan error, 1)
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		var werr error
		tick := time.NewTicker(interval)
		defer tick.Stop()
		write := func() {
			var buf bytes.Buffer
			err := pprof.WriteHeapProfile(&buf)
			if err == nil {
				err = os.WriteFile(name, buf.Bytes(), 0o666)
			}
			if werr == nil {
				werr = err
			}
		}
		for {
			select {
			case <-quit:
				if peak == 0 {
					write() // no collection saw a live heap: profile what there is
				}
				done <- werr
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				continue
			}
			if live := sample[0].Value.Uint64(); live > peak {
				peak = live
				write()
			}
		}
	}()
	return func() error {
		close(quit)
		return <-done
	}
}
