#!/usr/bin/env bash
# Compares what two goadvise binaries report on modules nobody here wrote:
# for each module directory, the findings of `check ./...` (the default)
# that enter or leave the first N (default 30), and how the number of
# findings of `check -all -cold ./...` changes. Run it for every change of
# what an analyzer reports, then read what entered and left as the
# modules' maintainers would.
#
# usage: scripts/compare-findings.sh OLD_BIN NEW_BIN [-n N] MODULE_DIR...
# (modules from the module proxy: ../shared/realmods/get.sh, or
#  `go mod download -json MOD@VER` and a writable copy of its Dir)
set -euo pipefail
if [ $# -lt 3 ]; then
	echo "usage: scripts/compare-findings.sh OLD_BIN NEW_BIN [-n N] MODULE_DIR..." >&2
	exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
n=30
if [ "$1" = "-n" ]; then
	n=$2
	shift 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for dir in "$@"; do
	if [ ! -f "$dir/go.mod" ]; then
		echo "$dir: no go.mod" >&2
		exit 2
	fi
	name=$(basename "$dir")
	for side in old new; do
		bin=$old
		[ "$side" = new ] && bin=$new
		# Exit status 3 means findings were reported; another status
		# (a package that does not load) is said, and the findings of
		# the others are compared.
		status=0
		(cd "$dir" && "$bin" check ./... >"$work/$side.txt" 2>&1) || status=$?
		if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
			echo "$dir: $bin check exited $status: $(tail -1 "$work/$side.txt" | cut -c1-200)" >&2
		fi
		(cd "$dir" && "$bin" check -all -cold ./... >"$work/$side.all" 2>&1) || true
		grep '^#' "$work/$side.txt" | head -"$n" | sed 's/^#[0-9]* //' | sort >"$work/$side.top"
	done
	echo "== $name: $(grep -c '^#' "$work/old.all") -> $(grep -c '^#' "$work/new.all") findings with -all -cold"
	diff "$work/old.top" "$work/new.top" | sed -n 's/^< /  left:    /p; s/^> /  entered: /p' || true
done
