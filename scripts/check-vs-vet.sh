#!/usr/bin/env bash
# Measures goadvise check against go vet (its default analyzers) on the same
# packages, same warm build cache, in one run, and prints ratios.
#
# usage: scripts/check-vs-vet.sh [pattern ...]   (default: the demo, net/..., encoding/...)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/goadvise
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/goadvise

measure() { # prints "seconds maxrss_kb" of a command (exit status ignored)
	local f
	f=$(mktemp)
	/usr/bin/time -f "%e %M" -o "$f" "$@" >/dev/null 2>&1 || true
	tail -1 "$f"
	rm -f "$f"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("./testdata/demo/..." "net/..." "encoding/...")
printf '%-22s %10s %10s %10s %10s %8s %8s\n' target check_s vet_s check_MB vet_MB time_x mem_x
for t in "${targets[@]}"; do
	# Warm the build cache and the export data both tools use.
	go vet "$t" >/dev/null 2>&1 || true
	"$bin" check "$t" >/dev/null 2>&1 || true
	read -r cs cm < <(measure "$bin" check "$t")
	read -r vs vm < <(measure go vet "$t")
	awk -v t="$t" -v cs="$cs" -v vs="$vs" -v cm="$cm" -v vm="$vm" 'BEGIN {
		printf "%-22s %10.2f %10.2f %10.0f %10.0f %8.2f %8.2f\n", t, cs, vs, cm/1024, vm/1024, cs/vs, cm/vm }'
done
echo "time_x, mem_x: goadvise check / go vet. Memory is the peak RSS of the largest single process"
echo "(for go vet, its largest vet child), as /usr/bin/time reports it."
