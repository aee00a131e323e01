#!/usr/bin/env bash
# Runs the performance linters that goadvise's findings must cover
# (perfsprint, prealloc, staticcheck SA6xxx, gocritic's performance checks;
# configuration in scripts/linters.yml) on a module, through golangci-lint,
# and prints their reports as golangci-lint's JSON on standard output.
#
# usage: scripts/linters.sh MODULE_DIR [PATTERN...]   (default pattern ./...)
#
# golangci-lint is taken from $GOLANGCI_LINT, else from PATH, else
# installed from the Go module proxy at the version .custom-gcl.yml names
# into $GOBIN (or $(go env GOPATH)/bin). scripts/floor.py compares the
# reports with goadvise's findings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ ! -f "$1/go.mod" ]; then
	echo "usage: scripts/linters.sh MODULE_DIR [PATTERN...]: MODULE_DIR must hold a go.mod" >&2
	exit 2
fi
dir=$1
shift
[ $# -gt 0 ] || set -- ./...
lint=${GOLANGCI_LINT:-$(command -v golangci-lint || true)}
if [ -z "$lint" ]; then
	version=$(sed -n 's/^version: *//p' "$root/.custom-gcl.yml")
	bin=$(go env GOBIN)
	bin=${bin:-$(go env GOPATH)/bin}
	echo "linters: installing golangci-lint $version into $bin" >&2
	GOBIN=$bin go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"
	lint=$bin/golangci-lint
fi
cd "$dir"
# Exit status 1 means reports were found; anything else is a failure.
status=0
"$lint" run --config "$root/scripts/linters.yml" --concurrency 2 \
	--output.json.path stdout --output.text.path stderr --show-stats=false "$@" 2>/dev/null || status=$?
if [ "$status" -gt 1 ]; then
	echo "linters: golangci-lint failed with status $status in $dir" >&2
	exit "$status"
fi
