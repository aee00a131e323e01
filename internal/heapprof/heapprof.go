// Package heapprof writes a heap profile of the process at its largest
// live heap, for goadvise's developers (check -memprofile and the
// measurement scripts): a profile written at the end shows what is left,
// not what made the peak.
package heapprof

import (
	"bytes"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

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
