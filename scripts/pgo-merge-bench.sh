#!/bin/sh
# pgo-merge-bench.sh compares 'goadvise pgo merge' with
# 'go tool pprof -proto -symbolize=none' on the same inputs: 200 synthetic
# CPU profiles of about 1 MB each, generated reproducibly by scripts/pgogen.
# It prints wall time, CPU time and peak RSS of both, and their ratios.
#
# Usage: scripts/pgo-merge-bench.sh [N] [WORKDIR]
set -eu

N=${1:-200}
WORK=${2:-$(mktemp -d)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "pgo-merge-bench: need GNU time at $TIME" >&2; exit 1; }

cd "$ROOT"
mkdir -p "$WORK/in"
if [ "$(ls "$WORK/in" | wc -l)" -ne "$N" ]; then
	rm -f "$WORK"/in/*.pprof
	go run ./scripts/pgogen -n "$N" -samples 17000 -o "$WORK/in"
fi
go build -o "$WORK/goadvise" ./cmd/goadvise
PPROF=$(go tool -n pprof) # the pprof binary itself, not the go command
echo "inputs: $N profiles, $(du -sh "$WORK/in" | cut -f1) in $WORK/in"

# measure NAME CMD... runs CMD under GNU time and prints wall s, cpu s, rss KB.
measure() {
	name=$1
	shift
	"$TIME" -f "%e %U %S %M" -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || {
		echo "$name failed:" >&2
		cat "$WORK/$name.err" >&2
		exit 1
	}
	awk -v n="$name" '{printf "%-8s wall %6.1fs  cpu %6.1fs  peak RSS %7.0f MB\n", n, $1, $2+$3, $4/1024}' "$WORK/$name.time"
}

rm -f "$WORK/merged.pgo"
# go tool pprof first, goadvise second, on the same (cached) inputs.
measure pprof $PPROF -proto -symbolize=none -output "$WORK/pprof.pb.gz" "$WORK"/in/*.pprof
measure goadvise "$WORK/goadvise" pgo merge -o "$WORK/merged.pgo" "$WORK/in"
cat "$WORK/goadvise.out"
ls -l "$WORK/pprof.pb.gz" "$WORK/merged.pgo" | awk '{printf "%s %d bytes\n", $NF, $5}'

awk '
FNR == 1 { f++ }
f == 1 { pw = $1; pc = $2 + $3; pm = $4 }
f == 2 { gw = $1; gc = $2 + $3; gm = $4 }
END {
	printf "ratio goadvise/pprof: wall %.2f  cpu %.2f  peak RSS %.2f\n", gw / pw, gc / pc, gm / pm
	ok = (gw < pw && gm * 2 <= pm)
	printf "target (faster, at most half the peak memory): %s\n", ok ? "met" : "NOT met"
}' "$WORK/pprof.time" "$WORK/goadvise.time"
