#!/usr/bin/env bash
# Regenerates testdata/demo/cpu.pprof and heap.pprof, the demo service's CPU
# and heap profiles, from the load benchmark. The benchmark runs a fixed
# amount of work (-benchtime in iterations: about 30 s of CPU, the length
# goadvise asks for a stable ranking), so the profiles' shape is
# reproducible; sample counts vary a little with the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go test -run '^$' -bench BenchmarkService -benchtime 2500x -cpuprofile "$tmp/cpu.pprof" -memprofile "$tmp/heap.pprof" -o "$tmp/load.test" ./testdata/demo/load
mv "$tmp/cpu.pprof" testdata/demo/cpu.pprof
mv "$tmp/heap.pprof" testdata/demo/heap.pprof
echo "wrote testdata/demo/cpu.pprof ($(wc -c < testdata/demo/cpu.pprof) bytes) and heap.pprof ($(wc -c < testdata/demo/heap.pprof) bytes)"
