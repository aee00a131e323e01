#!/usr/bin/env bash
# What the compiler's optimization log costs in memory, for one package:
# the compile goadvise runs for its escape data (-json=0,DIR) against the
# same compile without the log, and under several soft memory limits
# (GOMEMLIMIT). goadvise's peak memory on std is this compile for go/types
# (README "Performance"); this script shows why a lower limit cannot bring
# it down: the compiler keeps every log record, with the whole flow that
# explains each parameter's leak, until the compile ends.
#
# usage: scripts/compile-mem.sh [package]   (default: go/types)
# The package must have no cgo, assembly or embedded files.
set -euo pipefail
pkg=$(go list "${1:-go/types}") # an import path, for the compiler's -p
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "$(go list -f '{{.CgoFiles}}{{.SFiles}}{{.EmbedFiles}}' "$pkg" | tr -d '[]')" ]; then
	echo "compile-mem.sh: $pkg has cgo, assembly or embedded files; this script compiles only pure Go packages" >&2
	exit 2
fi
# -export builds the dependencies' export data if the build cache lacks it.
go list -deps -export -f '{{if .Export}}packagefile {{.ImportPath}}={{.Export}}{{end}}' "$pkg" >"$work/importcfg"
mapfile -t files < <(go list -f '{{range .GoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}' "$pkg")
std=()
[ "$(go list -f '{{.Standard}}' "$pkg")" = true ] && std=(-std)
compile=$(go env GOTOOLDIR)/compile
# The flags of goadvise's compiles (optlog/collect.go), without the log.
flags=(-p "$pkg" "${std[@]}" -importcfg "$work/importcfg" -c=1 -d=gcstart=64 -dwarf=false)

base_s= base_m=
run() { # label GOMEMLIMIT log(yes|no)
	local f="$work/time" logflag=()
	rm -rf "$work/log" && mkdir "$work/log"
	[ "$3" = yes ] && logflag=("-json=0,file://$work/log")
	GOMEMLIMIT=$2 /usr/bin/time -f "%e %M" -o "$f" "$compile" -o "$work/out.a" "${flags[@]}" "${logflag[@]}" "${files[@]}"
	read -r s m <"$f"
	m=$((m / 1024))
	[ -z "$base_s" ] && base_s=$s base_m=$m
	printf '%-30s %6.2f s %5d MB   time %.2fx  memory %.2fx   log %s\n' "$1" "$s" "$m" \
		"$(awk -v a="$s" -v b="$base_s" 'BEGIN { print a / b }')" \
		"$(awk -v a="$m" -v b="$base_m" 'BEGIN { print a / b }')" \
		"$(du -sh "$work/log" | cut -f1)"
}

echo "compile of $pkg (${#files[@]} files), -c=1 -d=gcstart=64 -dwarf=false:"
run "no log" off no
run "log" off yes
for l in ${LIMITS:-320 300 280 260}; do run "log, GOMEMLIMIT=${l}MiB" ${l}MiB yes; done
