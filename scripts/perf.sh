#!/usr/bin/env bash
# Scale targets of goadvise (README "Performance"): one run measures, on the
# same machine and with the same warm build cache,
#   - goadvise check (all analyzers, escape data on) with a cold goadvise cache,
#   - the floor: go build -gcflags=-m compiling the same packages,
#   - staticcheck (installed by this script) with a cold cache of its own,
#   - a warm re-run of goadvise check, and a re-run after editing one file,
#   - go vet -vettool=goadvise against plain go vet,
# and prints wall time and peak RSS with the ratios the targets are about.
#
# usage: scripts/perf.sh [module|std|both]   (default: module)
#   module: a copy of golang.org/x/tools (a large real module, from the
#           module cache), analysed as ./...; its files are edited between
#           runs so that every tool recompiles and re-analyses them while
#           dependencies stay warm.
#   std:    the standard library; the floor is go build -a -gcflags=std=-m std,
#           since goadvise recompiles all of std with its logging flags.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
which=${1:-module}
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

echo "building goadvise and installing staticcheck v0.8.2 ..."
go build -o "$work/goadvise" ./cmd/goadvise
GOBIN="$work/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
ga=$work/goadvise
sc=$work/bin/staticcheck

measure() { # name cmd...: runs cmd, records "name seconds maxrss_kb"
	local name=$1; shift
	local f; f=$(mktemp)
	/usr/bin/time -f "%e %M" -o "$f" "$@" >/dev/null 2>"$work/last.err" || true
	read -r s m < <(tail -1 "$f"); rm -f "$f"
	printf '%-34s %8.2f s %8.0f MB\n' "$name" "$s" "$((m / 1024))"
	eval "T_${name//[^a-zA-Z0-9]/_}=$s; M_${name//[^a-zA-Z0-9]/_}=$m"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

edit_all() { # append a comment to every Go file of the copy: a real change for every tool
	find "$1" -name '*.go' -not -path '*/testdata/*' -exec sh -c 'printf "\n// perf edit %s\n" "$0" >> "$1"' "$RANDOM" {} \;
}

report() {
	echo
	echo "ratios ($1):"
	echo "  check cold / go build -gcflags=-m : $(ratio "$T_check_cold" "$T_floor")   (target <= 1.3)"
	echo "  check cold / staticcheck (cold)   : $(ratio "$T_check_cold" "$T_staticcheck")   (target <= 0.6)"
	echo "  check peak RSS / staticcheck's    : $(ratio "$M_check_cold" "$M_staticcheck")   (target <= 0.5)"
	echo "  check warm / check cold           : $(ratio "$T_check_warm" "$T_check_cold")   (target <= 0.10)"
	if [ -n "${T_vettool:-}" ]; then
		echo "  go vet -vettool / go vet          : $(ratio "$T_vettool" "$T_vet")   (target <= 2)"
	fi
}

run_module() {
	local src
	src=$(go env GOMODCACHE)/golang.org/x/tools@v0.52.0
	[ -d "$src" ] || go mod download golang.org/x/tools@v0.52.0
	cp -r "$src" "$work/xtools"
	chmod -R u+w "$work/xtools"
	cd "$work/xtools"
	go mod download >/dev/null
	local pkgs
	pkgs=$(go list ./... | wc -l)
	echo
	echo "== workload: golang.org/x/tools@v0.52.0, $pkgs packages (copy in $work/xtools)"
	go build ./... >/dev/null 2>&1 || true # warm the build cache for dependencies
	go vet ./... >/dev/null 2>&1 || true
	"$ga" check ./... >/dev/null 2>&1 || true
	"$sc" ./... >/dev/null 2>&1 || true

	edit_all .; measure floor go build -gcflags='golang.org/x/tools/...=-m' ./...
	edit_all .; GOADVISE_CACHE=$work/cache1 measure check_cold "$ga" check ./...
	GOADVISE_CACHE=$work/cache1 measure check_warm "$ga" check ./...
	printf '\n// perf edit one\n' >>go/ssa/ssa.go
	GOADVISE_CACHE=$work/cache1 "$ga" check -format json ./... >"$work/one.json" 2>/dev/null || true
	echo "after editing go/ssa/ssa.go: $(python3 -c "import json,sys; s=json.load(open('$work/one.json'))['stats']; print(s['packages']-s['cached'], 'of', s['packages'], 'packages recomputed')")"
	edit_all .; STATICCHECK_CACHE=$work/sccache measure staticcheck "$sc" ./...
	edit_all .; measure vet go vet ./...
	edit_all .; measure vettool go vet -vettool="$ga" ./...
	report "x/tools"
	cd "$root"
}

run_std() {
	echo
	echo "== workload: std ($(go list std | wc -l) packages)"
	go vet std >/dev/null 2>&1 || true
	measure floor go build -a -gcflags=std=-m std
	GOADVISE_CACHE=$work/cache2 measure check_cold "$ga" check std
	GOADVISE_CACHE=$work/cache2 measure check_warm "$ga" check std
	STATICCHECK_CACHE=$work/sccache2 measure staticcheck "$sc" std
	unset T_vettool
	report "std"
}

case $which in
module) run_module ;;
std) run_std ;;
both) run_module; run_std ;;
*) echo "usage: $0 [module|std|both]" >&2; exit 2 ;;
esac
