#!/usr/bin/env bash
# Scale targets of goadvise (docs/performance.md): one run measures, on the
# same machine and with the same warm build cache, for each workload:
#   - the floor: go build -gcflags=-m compiling the same packages,
#   - goadvise check (all analyzers, escape data on) with a cold goadvise
#     cache, its warm re-run, and a re-run after editing one file,
#   - staticcheck (installed by this script) with a cold cache of its own,
#   - go vet -vettool=goadvise against plain go vet,
#   - goadvise check -whole with a cold cache, against check's memory,
#   - goadvise check -profile, cold then warm (module workloads: the profile
#     is goadvise's own CPU profile of its cold check, which runs the
#     workload's code when the workload is golang.org/x/tools),
# and prints wall time and peak RSS, then every ratio the targets are about.
#
# usage: scripts/perf.sh [xtools|nats|goredis|std|all]   (default: all)
#   GOADVISE_BIN=path measures that goadvise binary instead of building
#   this checkout's (for a before/after table).
#   xtools: a copy of golang.org/x/tools@v0.52.0 (216 packages);
#   nats:   a copy of github.com/nats-io/nats-server/v2@v2.15.2 (one large
#           package, server, of about 100k lines);
#   goredis: a copy of github.com/redis/go-redis/v9@v9.23.0 (20 packages;
#           its root package of 2 MB of source needs about 600 MB live to
#           compile);
#           module copies are edited between runs so that every tool
#           recompiles and re-analyses them while dependencies stay warm.
#   std:    the standard library; the floor is go build -a -gcflags=std=-m std.
#           goadvise finds std's plain compiles in the build cache and
#           compiles them again only for the log (with its front-end copy
#           of the compiler); a second run with GOADVISE_FRONTEND=off
#           compiles all of std with the log, as without those compiles.
# Peak memory is the largest RSS of any one process of the run (GNU time),
# the compiler's included. Times are wall-clock seconds: run it on a quiet
# machine, and compare ratios, which are measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
which=${1:-all}
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

echo "building goadvise and installing staticcheck v0.8.2 ..."
if [ -n "${GOADVISE_BIN:-}" ]; then
	# An earlier build to measure, for before/after tables.
	cp "$GOADVISE_BIN" "$work/goadvise"
else
	go build -o "$work/goadvise" ./cmd/goadvise
fi
GOBIN="$work/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
ga=$work/goadvise
sc=$work/bin/staticcheck
summary=$work/summary

measure() { # name cmd...: runs cmd, records "name seconds maxrss_kb"
	local name=$1; shift
	local f; f=$(mktemp)
	/usr/bin/time -f "%e %M" -o "$f" "$@" >/dev/null 2>"$work/last.err" || true
	read -r s m < <(tail -1 "$f"); rm -f "$f"
	printf '  %-22s %8.2f s %8.0f MB\n' "$name" "$s" "$((m / 1024))"
	eval "T_${name//[^a-zA-Z0-9]/_}=$s; M_${name//[^a-zA-Z0-9]/_}=$m"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
line() { # what value target
	printf '  %-44s %6s   (target %s)\n' "$1" "$2" "$3" | tee -a "$summary"
}

# The front-end copy of the compiler is built once per toolchain into
# goadvise's cache (docs/caches.md), as the first run on a machine does;
# a cold cache below is empty but for it, so that a cold check is not also
# the link of a compiler (about 300 MB at its peak).
GOADVISE_CACHE=$work/fe-cache "$ga" check errors >/dev/null 2>&1 || true
cold_cache() { # dir: a fresh goadvise cache holding only the front-end copy
	rm -rf "$1"
	mkdir -p "$1"
	if [ -d "$work/fe-cache/frontend" ]; then cp -r "$work/fe-cache/frontend" "$1/"; fi
}

edit_all() { # append a comment to every Go file of the copy: a real change for every tool
	find "$1" -name '*.go' -not -path '*/testdata/*' -exec sh -c 'printf "\n// perf edit %s\n" "$0" >> "$1"' "$RANDOM" {} \;
}

report() { # workload
	echo | tee -a "$summary"
	echo "ratios, $1 ($(date -u +%Y-%m-%d)):" | tee -a "$summary"
	line "check cold / go build -gcflags=-m" "$(ratio "$T_check_cold" "$T_floor")" "<= 1.0"
	line "check cold / staticcheck (cold)" "$(ratio "$T_check_cold" "$T_staticcheck")" "<= 0.6"
	line "check peak RSS / staticcheck's" "$(ratio "$M_check_cold" "$M_staticcheck")" "<= 0.5"
	line "check warm / check cold" "$(ratio "$T_check_warm" "$T_check_cold")" "<= 0.10"
	if [ -n "${T_vettool:-}" ]; then
		line "go vet -vettool=goadvise / go vet" "$(ratio "$T_vettool" "$T_vet")" "<= 1.3"
	fi
	if [ -n "${M_whole:-}" ]; then
		line "check -whole peak RSS / check's" "$(ratio "$M_whole" "$M_check_cold")" "<= 2"
	fi
	if [ -n "${T_profile_warm:-}" ]; then
		line "check -profile warm / cold" "$(ratio "$T_profile_warm" "$T_profile_cold")" "<= 0.10"
	fi
	if [ -n "${T_check_logbuild:-}" ]; then
		line "same, every package compiled with the log / floor" "$(ratio "$T_check_logbuild" "$T_floor")" "for reference"
		line "same, its peak RSS / staticcheck's" "$(ratio "$M_check_logbuild" "$M_staticcheck")" "for reference"
	fi
	unset T_vettool M_whole T_profile_warm T_check_logbuild
}

# run_module NAME MODULE VERSION ONEFILE PROFILE: the measures on a copy of
# MODULE@VERSION; ONEFILE is the file edited for the one-file re-run;
# PROFILE is "self" to measure -profile with goadvise's own profile.
run_module() {
	local name=$1 mod=$2 ver=$3 one=$4 prof=$5 src
	src=$(go env GOMODCACHE)/$mod@$ver
	[ -d "$src" ] || (cd "$work" && GOFLAGS=-mod=mod go mod download "$mod@$ver")
	cp -r "$src" "$work/$name"
	chmod -R u+w "$work/$name"
	cd "$work/$name"
	go mod download >/dev/null 2>&1 || true
	local pkgs
	pkgs=$(go list ./... | wc -l)
	echo
	echo "== workload: $mod@$ver, $pkgs packages (copy in $work/$name)"
	go build ./... >/dev/null 2>&1 || true # warm the build cache for dependencies
	go vet ./... >/dev/null 2>&1 || true
	# The same for goadvise as a vet tool: go vet runs it on every
	# dependency, std included, to type-check it for the vet units that
	# import it, and caches those results by the tool's version, as it
	# caches its own above. The first run after installing goadvise pays
	# for them (3 s more on x/tools), as go vet's first run does.
	go vet -vettool="$ga" ./... >/dev/null 2>&1 || true
	# goadvise's own CPU profile of a cold check, for the -profile runs.
	GOADVISE_CACHE=$work/cache-$name-warmup "$ga" check -cpuprofile "$work/$name.cpu" ./... >/dev/null 2>&1 || true
	"$sc" ./... >/dev/null 2>&1 || true

	edit_all .; measure floor go build -gcflags="$mod/...=-m" ./...
	edit_all .; cold_cache "$work/cache-$name"; GOADVISE_CACHE=$work/cache-$name measure check_cold "$ga" check ./...
	GOADVISE_CACHE=$work/cache-$name measure check_warm "$ga" check ./...
	printf '\n// perf edit one\n' >>"$one"
	GOADVISE_CACHE=$work/cache-$name "$ga" check -format json ./... >"$work/one.json" 2>/dev/null || true
	echo "  after editing $one: $(python3 -c "import json,sys; s=json.load(open('$work/one.json'))['stats']; print(s['packages']-s['cached'], 'of', s['packages'], 'packages recomputed')")"
	edit_all .; STATICCHECK_CACHE=$work/sccache-$name measure staticcheck "$sc" ./...
	edit_all .; measure vet go vet ./...
	edit_all .; measure vettool go vet -vettool="$ga" ./...
	edit_all .; cold_cache "$work/cache-$name-whole"; GOADVISE_CACHE=$work/cache-$name-whole measure whole "$ga" check -whole ./...
	if [ "$prof" = self ]; then
		edit_all .; cold_cache "$work/cache-$name-prof"; GOADVISE_CACHE=$work/cache-$name-prof measure profile_cold "$ga" check -profile "$work/$name.cpu" ./...
		GOADVISE_CACHE=$work/cache-$name-prof measure profile_warm "$ga" check -profile "$work/$name.cpu" ./...
	fi
	report "$mod@$ver"
	cd "$root"
}

run_std() {
	echo
	echo "== workload: std ($(go list std | wc -l) packages)"
	go vet std >/dev/null 2>&1 || true
	measure floor go build -a -gcflags=std=-m std
	# go list -export std leaves the plain compiles of std in the build
	# cache, as any build of a program does for the packages it imports:
	# check compiles those with the front-end copy of the compiler (see
	# docs/performance.md). GOADVISE_FRONTEND=off compiles every package
	# with the log, as check does when the build cache lacks them.
	go list -export std >/dev/null
	cold_cache "$work/cache-std"
	GOADVISE_CACHE=$work/cache-std measure check_cold "$ga" check std
	GOADVISE_CACHE=$work/cache-std measure check_warm "$ga" check std
	GOADVISE_CACHE=$work/cache-std-logbuild GOADVISE_FRONTEND=off measure check_logbuild "$ga" check std
	STATICCHECK_CACHE=$work/sccache-std measure staticcheck "$sc" std
	report "std"
}

case $which in
xtools) run_module xtools golang.org/x/tools v0.52.0 go/ssa/ssa.go self ;;
nats) run_module nats github.com/nats-io/nats-server/v2 v2.15.2 server/parser.go none ;;
goredis) run_module goredis github.com/redis/go-redis/v9 v9.23.0 commands.go none ;;
std) run_std ;;
all)
	run_module xtools golang.org/x/tools v0.52.0 go/ssa/ssa.go self
	run_module nats github.com/nats-io/nats-server/v2 v2.15.2 server/parser.go none
	run_module goredis github.com/redis/go-redis/v9 v9.23.0 commands.go none
	run_std
	;;
*) echo "usage: $0 [xtools|nats|goredis|std|all]" >&2; exit 2 ;;
esac
echo
echo "== all ratios"
cat "$summary"
