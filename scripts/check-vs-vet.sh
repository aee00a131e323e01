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
printf '%-22s %-8s %10s %10s %10s %10s %8s %8s\n' target caches check_s vet_s check_MB vet_MB time_x mem_x
row() {
	awk -v t="$1" -v c="$2" -v cs="$3" -v vs="$5" -v cm="$4" -v vm="$6" 'BEGIN {
		printf "%-22s %-8s %10.2f %10.2f %10.0f %10.0f %8.2f %8.2f\n", t, c, cs, vs, cm/1024, vm/1024, cs/vs, cm/vm }'
}
for t in "${targets[@]}"; do
	# Warm: both tools' caches hold this tree's results (go vet caches
	# per-package results; goadvise its findings and compiler decisions).
	go vet "$t" >/dev/null 2>&1 || true
	"$bin" check "$t" >/dev/null 2>&1 || true
	read -r cs cm < <(measure "$bin" check "$t")
	read -r vs vm < <(measure go vet "$t")
	row "$t" warm "$cs" "$cm" "$vs" "$vm"
	# Uncached: goadvise with empty caches (it compiles the packages for the
	# compiler's decisions and analyses them); go vet with a flag value it
	# has not seen, so it re-runs every unit (the build cache stays warm for
	# both).
	fresh=$(mktemp -d)
	read -r cs cm < <(GOADVISE_CACHE=$fresh measure "$bin" check "$t")
	rm -rf "$fresh"
	read -r vs vm < <(measure go vet -printf.funcs="goadviseNoSuch$RANDOM$RANDOM" "$t")
	row "$t" uncached "$cs" "$cm" "$vs" "$vm"
done
echo "time_x, mem_x: goadvise check / go vet. Memory is the peak RSS of the largest single process"
echo "(for go vet, its largest vet child), as /usr/bin/time reports it."
