#!/usr/bin/env bash
# Regenerates testdata/demo/cpu.pprof, the demo service's CPU profile, from
# the load benchmark. The benchmark runs a fixed amount of work (-benchtime
# in iterations), so the profile's shape is reproducible; sample counts vary
# a little with the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run '^$' -bench BenchmarkService -benchtime 250x -cpuprofile "$tmp/cpu.pprof" -o "$tmp/load.test" ./testdata/demo/load
mv "$tmp/cpu.pprof" testdata/demo/cpu.pprof
echo "wrote testdata/demo/cpu.pprof ($(wc -c < testdata/demo/cpu.pprof) bytes)"
