#!/usr/bin/env bash
# recall.sh [-bench] [-eval|-eval2|-eval3|-eval4] [WORKDIR]: does goadvise's default output flag
# what maintainers fix?
#
# Builds goadvise from this checkout, runs ../shared/recall (the release-pair
# harness: functions whose heap allocations maintainers removed between two
# releases, from go build -gcflags=-m of both) on the pairs of one half of
# the corpus (scripts/recall/split.txt: the development half by default,
# scripts/recall/pairs-dev.txt; the evaluation half's sets of pairs with
# -eval, -eval2, -eval3 and -eval4, each for one blind scoring, not for tuning),
# then scores the default output against every
# fixed function and against the ones read by hand as real fixes
# (verdicts-dev.tsv, verdicts-eval.tsv), beside the naive baseline (the
# functions with most -m allocations, top 3 per 1,000 lines). Downloads and
# -m results are cached in WORKDIR (default /tmp/goadvise-recall); a new
# binary re-runs only goadvise. See docs/performance.md, "Recall".
#
# recall.sh -bench [WORKDIR]: then also ranks by the modules' own benchmarks
# (check -bench, scripts/recall/bench.py with scripts/recall/benches.txt) and
# says where each real fix the benchmarks run ranks in its package. The
# benchmarks take about 20 minutes the first time (nats-server's clusters),
# and are cached by content for the same binary.
set -euo pipefail
bench=
half=dev
while [ $# -gt 0 ]; do
	case "$1" in
	-bench) bench=1 ;;
	-eval) half=eval ;;
	-eval2) half=eval2 ;;
	-eval3) half=eval3 ;;
	-eval4) half=eval4 ;;
	*) break ;;
	esac
	shift
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
harness=${RECALL_HARNESS:-$root/../shared/recall}
work=${1:-${TMPDIR:-/tmp}/goadvise-recall}
if [ ! -x "$harness/run.sh" ]; then
	echo "recall.sh: no harness at $harness (set RECALL_HARNESS to ../shared/recall's path)" >&2
	exit 2
fi
mkdir -p "$work"
bin="$work/goadvise"
(cd "$root" && go build -o "$bin" ./cmd/goadvise)
hash=$(sha256sum "$bin" | cut -c1-12)
"$harness/run.sh" "$bin" "$here/recall/pairs-$half.txt" "$work" >"$work/run.out"
tail -n 1 "$work/run.out"
python3 "$here/recall/score.py" "$work" "$here/recall/pairs-$half.txt" "$here/recall/verdicts-$half.tsv" "$hash"
if [ -n "$bench" ]; then
	python3 "$here/recall/bench.py" "$work" "$here/recall/pairs-$half.txt" "$here/recall/verdicts-$half.tsv" "$here/recall/benches.txt" "$bin"
fi
