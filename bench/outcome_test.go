package bench

import (
	"reflect"
	"strings"
	"testing"
)

// The outputs below are what Go 1.26's test binaries print, framing
// character (^V, \x16) included.

// A run of three benchmarks with -test.v=test2json: one fails, one skips
// itself, one has a sub-benchmark that skips itself, one measured and one
// failing.
const chattyOutput = `goos: linux
goarch: amd64
pkg: example.com/sk
cpu: AMD EPYC
\x16=== RUN   BenchmarkFail
BenchmarkFail
    sk_test.go:5: note
    sk_test.go:5: broken
\x16--- FAIL: BenchmarkFail
\x16=== RUN   BenchmarkSkip
BenchmarkSkip
    sk_test.go:6: unset
\x16--- SKIP: BenchmarkSkip
\x16=== RUN   BenchmarkSubs
BenchmarkSubs
\x16=== RUN   BenchmarkSubs/skip
BenchmarkSubs/skip
    sk_test.go:8: sub unset
\x16--- SKIP: BenchmarkSubs/skip
\x16=== RUN   BenchmarkSubs/ok
BenchmarkSubs/ok
BenchmarkSubs/ok-2           	       1	       521.0 ns/op
\x16=== NAME  
\x16=== RUN   BenchmarkSubs/fail
BenchmarkSubs/fail
    sk_test.go:10: sub broken
\x16--- FAIL: BenchmarkSubs/fail
\x16--- FAIL: BenchmarkSubs
\x16FAIL
`

// A sub-benchmark calling os.Exit(0) under -test.paniconexit0.
const crashOutput = `goos: linux
goarch: amd64
pkg: example.com/v
cpu: AMD EPYC
\x16=== RUN   BenchmarkSubs
BenchmarkSubs
\x16=== RUN   BenchmarkSubs/exit
BenchmarkSubs/exit
panic: unexpected call to os.Exit(0) during test

goroutine 23 [running]:
os.Exit(0x0)
	/usr/local/go/src/os/proc.go:67 +0x51
example.com/v.BenchmarkSubs.func1(0x3a9bd5a74608?)
	/tmp/r48b/var/v_test.go:21 +0x15
testing.(*B).runN(0x3a9bd5a74608, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190
`

// A benchmark calling os.Exit(0) under -test.paniconexit0 whose test
// binary won the race that unfinished describes: status 0 (one run of 200
// on a loaded machine).
const raceOutput = `goos: linux
goarch: amd64
pkg: example.com/exitfx
cpu: AMD EPYC
BenchmarkExit-2   	       1
PASS
`

func TestReadListing(t *testing.T) {
	for _, c := range []struct {
		name, out string
		want      listing
	}{
		{"chatty", chattyOutput, listing{
			results: []benchResult{{name: "BenchmarkSubs/ok", n: 1}},
			skipped: []SkippedBenchmark{
				{Name: "BenchmarkSkip", Reason: "the benchmark skips itself: sk_test.go:6: unset"},
				{Name: "BenchmarkSubs/skip", Reason: "the benchmark skips itself: sk_test.go:8: sub unset"},
			},
			// The last line logged, as b.Fatal's comes last; the
			// parent's failure is its sub-benchmark's.
			failed: []SkippedBenchmark{
				{Name: "BenchmarkFail", Reason: "failed: sk_test.go:5: broken"},
				{Name: "BenchmarkSubs/fail", Reason: "failed: sk_test.go:10: sub broken"},
			},
			ended: true,
		}},
		{"crash", crashOutput, listing{running: "BenchmarkSubs/exit"}},
		{"race", raceOutput, listing{unfinished: []string{"BenchmarkExit"}, ended: true}},
	} {
		out := strings.ReplaceAll(c.out, `\x16`, "\x16")
		if got := readListing([]byte(out)); !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%s: readListing = %+v, want %+v", c.name, *got, c.want)
		}
	}
	if _, err := results([]byte(raceOutput), nil); err != errUnfinished {
		t.Errorf("results of the race's output: %v, want errUnfinished", err)
	}
}

func TestWhy(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{crashOutput, "panic: unexpected call to os.Exit(0) during test"},
		{"BenchmarkDeadlock\nfatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\ntesting.(*B).run1(0xc000130288)\n\t/usr/local/go/src/testing/benchmark.go:247 +0xa6\n",
			"fatal error: all goroutines are asleep - deadlock!"},
		{"--- FAIL: BenchmarkFail\n    fx_test.go:15: broken\nFAIL\n", "--- FAIL: BenchmarkFail: fx_test.go:15: broken"},
		{"cpu: AMD EPYC\nBenchmarkPanic-2   \tpanic: boom\n\ngoroutine 6 [running]:\n", "panic: boom"},
		{"no PASS here\n", "no PASS here"},
	} {
		if got := why(c.out); got != c.want {
			t.Errorf("why(%.40q...) = %q, want %q", c.out, got, c.want)
		}
	}
}

// A test binary's goroutines on SIGQUIT, while its benchmark, whose
// goroutine is waiting for a sub-benchmark, runs one blocked on a channel
// (the CPU profiler's goroutine keeps the runtime from calling it a
// deadlock).
const quitOutput = `SIGQUIT: quit
PC=0x48c221 m=0 sigcode=0

goroutine 19 gp=0x143b810803c0 m=0 mp=0x6d7e60 [syscall]:
runtime.notetsleepg(0x143b810d6080, 0xffffffffffffffff)
	/usr/local/go/src/runtime/lock_futex.go:123 +0x29 fp=0x143b8108eeb0 sp=0x143b8108ee88 pc=0x41ca89
runtime/pprof.profileWriter({0x596488?, 0x143b81088060?})
	/usr/local/go/src/runtime/pprof/pprof.go:930 +0x45 fp=0x143b8108efc0 sp=0x143b8108ef58 pc=0x51af25
created by runtime/pprof.StartCPUProfile in goroutine 1
	/usr/local/go/src/runtime/pprof/pprof.go:911 +0x1a5

goroutine 1 gp=0x143b80fa21e0 m=nil [chan receive]:
runtime.gopark(0x1de8d0a00?, 0x20001de8c7100?, 0x60?, 0xa?, 0x7f86de8c7108?)
	/usr/local/go/src/runtime/proc.go:462 +0xce fp=0x143b810df820 sp=0x143b810df800 pc=0x483a2e
testing.(*B).run1(0x143b810ee308)
	/usr/local/go/src/testing/benchmark.go:247 +0xa6 fp=0x143b810df9b0 sp=0x143b810df8c0 pc=0x4de806
testing.(*B).Run(0x143b810ee008, {0x587df3?, 0x143b810dfad0?}, 0x593ed0)
	/usr/local/go/src/testing/benchmark.go:867 +0x4de fp=0x143b810dfab0 sp=0x143b810df9b0 pc=0x4e173e
testing.runBenchmarks.func1(0x143b810ee008)
	/usr/local/go/src/testing/benchmark.go:726 +0x3e fp=0x143b810dfaf8 sp=0x143b810dfab0 pc=0x4e07de
testing.(*B).runN(0x143b810ee008, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190 fp=0x143b810dfb88 sp=0x143b810dfaf8 pc=0x4de610

goroutine 7 gp=0x143b80fa3c20 m=nil [chan receive]:
runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/proc.go:462 +0xce fp=0x143b80fd8fa8 sp=0x143b80fd8f88 pc=0x483a2e
testing.(*B).run1(0x143b810ee608)
	/usr/local/go/src/testing/benchmark.go:247 +0xa6 fp=0x143b810df9b0 sp=0x143b810df8c0 pc=0x4de806
testing.(*B).Run(0x143b810ee308, {0x587df3?, 0x143b810dfad0?}, 0x593ed0)
	/usr/local/go/src/testing/benchmark.go:867 +0x4de fp=0x143b810dfab0 sp=0x143b810df9b0 pc=0x4e173e
example.com/dl.BenchmarkChan(0x143b810ee308)
	/tmp/goadvise-benchprof-1/src/dl_test.go:16 +0x3e fp=0x143b810dfaf8 sp=0x143b810dfab0 pc=0x4e07de
testing.(*B).runN(0x143b810ee308, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190 fp=0x143b810dfb88 sp=0x143b810dfaf8 pc=0x4de610

goroutine 8 gp=0x143b80fa3e00 m=nil [chan send]:
runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/proc.go:462 +0xce fp=0x143b80fd8fa8 sp=0x143b80fd8f88 pc=0x483a2e
runtime.chansend1(0x143b81084150, 0x5946b8)
	/usr/local/go/src/runtime/chan.go:161 +0x1d fp=0x143b810dfaf8 sp=0x143b810dfab0 pc=0x4e07de
example.com/dl.BenchmarkChan.func1(0x143b810ee608)
	/tmp/goadvise-benchprof-1/src/dl_test.go:19 +0x3e fp=0x143b810dfaf8 sp=0x143b810dfab0 pc=0x4e07de
testing.(*B).runN(0x143b810ee608, 0x64)
	/usr/local/go/src/testing/benchmark.go:219 +0x190 fp=0x143b810dfb88 sp=0x143b810dfaf8 pc=0x4de610
`

func TestStuck(t *testing.T) {
	rel := &relocation{from: []string{"/tmp/goadvise-benchprof-1/src"}, to: "/home/u/dl"}
	if got, want := stuck(quitOutput, rel), "chan send at dl_test.go:19"; got != want {
		t.Errorf("stuck = %q, want %q", got, want)
	}
	if got := stuck(raceOutput, rel); got != "" {
		t.Errorf("stuck of an output without goroutines = %q, want none", got)
	}
}
