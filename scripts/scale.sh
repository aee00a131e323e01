#!/usr/bin/env bash
# Scale of goadvise check on one large package (docs/performance.md): for
# each size, a module of one package of that many small functions in one
# file, shaped like generated code but not marked generated
# (scripts/scalegen), and on the same machine with the same warm build
# cache for its dependencies:
#   - the floor: go build -gcflags=-m of the package,
#   - goadvise check ./... with a cold goadvise cache (holding only the
#     front-end copy of the compiler, as any machine's after its first run),
# each after an edit of the package, so that both compile it; and prints
# wall time, CPU time (user + system, children included) and peak RSS (the
# largest of any one process, the compiler's included), then the ratios.
# Then, unless SIGNAL=0, it sends SIGTERM to check alone while it compiles
# and while it analyses, and prints how long it took to exit, what was
# left in its TMPDIR, and (on Linux) which of its processes still ran.
#
# usage: scripts/scale.sh [functions ...]   (default: 20000)
#   GOADVISE_BIN=path measures that goadvise binary instead of building
#   this checkout's (for a before/after table).
#   PERFILE=n puts n functions in each file instead of all in one.
#   SIGNAL=0 skips the interrupt measurements.
# Run the sizes from small to large: the machine's other load shows in the
# times, less in the ratios, which are measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20000)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

if [ -n "${GOADVISE_BIN:-}" ]; then
	cp "$GOADVISE_BIN" "$work/goadvise"
else
	go build -o "$work/goadvise" ./cmd/goadvise
fi
ga=$work/goadvise
go build -o "$work/scalegen" ./scripts/scalegen

# The front-end copy, built once into a cache that each cold cache copies
# (see scripts/perf.sh).
GOADVISE_CACHE=$work/fe-cache "$ga" check errors >/dev/null 2>&1 || true
cold_cache() {
	rm -rf "$1"
	mkdir -p "$1"
	if [ -d "$work/fe-cache/frontend" ]; then cp -r "$work/fe-cache/frontend" "$1/"; fi
}
edit() { printf '\n// scale edit %s\n' "$RANDOM$RANDOM" >>"$1/big/f000.go"; }

measure() { # dir cmd...: sets S (wall), C (CPU) and M (peak RSS, MB)
	local dir=$1 f=$work/time
	shift
	(cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$f" "$@" >/dev/null 2>"$work/last.err") || true
	read -r S u s m < <(tail -1 "$f")
	C=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
	M=$((m / 1024))
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# interrupt dir label delay: starts a cold check, sends SIGTERM to it alone
# after delay seconds, and reports.
interrupt() {
	local dir=$1 label=$2 delay=$3 tmp=$work/tmp-$RANDOM
	mkdir "$tmp"
	edit "$dir"
	cold_cache "$work/cache"
	(cd "$dir" && exec env GOADVISE_CACHE="$work/cache" TMPDIR="$tmp" "$ga" check ./... >/dev/null 2>"$work/sig.err") &
	local pid=$!
	sleep "$delay"
	local running=""
	if [ -d /proc ]; then running=$(procs "$tmp"); fi
	local t0 t1
	t0=$(date +%s.%N)
	kill -TERM "$pid" 2>/dev/null || true
	local status=0
	wait "$pid" || status=$?
	t1=$(date +%s.%N)
	sleep 0.2
	local left=""
	if [ -d /proc ]; then left=$(procs "$tmp"); fi
	printf '  SIGTERM %-9s after %5.1f s: exit %d after %.2f s; running before: %s; left running: %s; left in TMPDIR: %s (%s)\n' \
		"$label" "$delay" "$status" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		"${running:-none}" "${left:-none}" "$(find "$tmp" -mindepth 1 -maxdepth 1 | wc -l) entries" "$(du -sh "$tmp" | cut -f1)"
	rm -rf "$tmp"
}

# procs tmp: the names of the live processes whose TMPDIR is in tmp.
procs() {
	local p names=""
	for p in /proc/[0-9]*; do
		if tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -q "^TMPDIR=$1" &&
			! awk '{ sub(/.*\) /, ""); exit !($1 == "Z") }' "$p/stat" 2>/dev/null; then
			names="$names $(basename "$(tr '\0' '\n' 2>/dev/null <"$p/cmdline" | head -1)")"
		fi
	done
	echo "${names# }"
}

printf '%-9s %8s | %-26s | %-26s | %s\n' functions lines "go build -gcflags=-m" "goadvise check (cold)" "ratios: time, CPU, peak RSS"
rows=()
for n in "${sizes[@]}"; do
	dir=$work/m$n
	"$work/scalegen" -funcs "$n" -perfile "${PERFILE:-0}" -o "$dir"
	lines=$(cat "$dir"/big/*.go | wc -l)
	# The dependencies, warm (the package itself is compiled below).
	(cd "$dir" && go list -deps -f '{{if .Standard}}{{.ImportPath}}{{end}}' ./big | xargs go build)
	edit "$dir"
	measure "$dir" go build -gcflags=-m ./big
	fs=$S fc=$C fm=$M
	edit "$dir"
	cold_cache "$work/cache"
	measure "$dir" env GOADVISE_CACHE="$work/cache" "$ga" check -o "$work/report.txt" ./...
	cs=$S cc=$C cm=$M
	tail -1 "$work/report.txt" | sed 's/^/  check: /'
	row=$(printf '%-9s %8s | %7.2f s %7.2f s %6d MB | %7.2f s %7.2f s %6d MB | %5s %5s %5s' "$n" "$lines" \
		"$fs" "$fc" "$fm" "$cs" "$cc" "$cm" "$(ratio "$cs" "$fs")" "$(ratio "$cc" "$fc")" "$(ratio "$cm" "$fm")")
	echo "$row"
	rows+=("$row")
	if [ "${SIGNAL:-1}" != 0 ]; then
		# While the package compiles (a fifth into the run), then
		# while it is analysed (nine tenths into it).
		interrupt "$dir" compiling "$(awk -v s="$cs" 'BEGIN { printf "%.1f", s / 5 }')"
		interrupt "$dir" analysing "$(awk -v s="$cs" 'BEGIN { printf "%.1f", s * 0.9 }')"
	fi
done
echo
printf '%-9s %8s | %-26s | %-26s | %s\n' functions lines "go build -gcflags=-m" "goadvise check (cold)" "ratios: time, CPU, peak RSS"
printf '%s\n' "${rows[@]}"
