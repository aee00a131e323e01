#!/bin/sh
# escape-bench.sh measures goadvise's collection of the compiler's escape
# decisions against its floor, one go build -gcflags=-m over the same
# packages with the same warm build cache, and a warm re-run against the
# cold run. It copies the module to a temporary directory (the benchmark
# appends a comment to each package to force recompiles) and prints the
# ratios.
#
# Usage: scripts/escape-bench.sh [module-dir] [patterns...]
# Default: this repository, ./...
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$root}
[ $# -gt 0 ] && shift
patterns=${*:-./...}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Copy the module without VCS data.
(cd "$src" && tar --exclude=.git -cf - .) | (cd "$tmp" && tar -xf -)
cd "$root"
ESCAPE_BENCH_DIR="$tmp" ESCAPE_BENCH_PATTERNS="$patterns" \
	go test -count=1 -run '^TestEscapeBench$' -v ./optlog | grep -E 'packages:|floor|cold|warm|FAIL|ok'
