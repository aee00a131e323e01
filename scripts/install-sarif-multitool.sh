#!/usr/bin/env bash
# Installs Microsoft's SARIF validator (the npm package
# @microsoft/sarif-multitool-linux, which ships the Sarif.Multitool binary)
# for the test that validates goadvise's SARIF output, and prints the
# binary's path. It is idempotent. Without npm it says so on stderr and
# exits 0: the test then skips itself with a message, unless
# GOADVISE_REQUIRE_SARIF is set (as .ci/run does).
#
# usage: scripts/install-sarif-multitool.sh [DIR]   (default: ~/.cache/goadvise-ci/sarif)
set -euo pipefail
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/goadvise-ci/sarif}
version=5.7.0
bin=$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -x "$bin" ]; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "install-sarif-multitool: npm not found; the SARIF validation test will be skipped" >&2
		exit 0
	fi
	mkdir -p "$dir"
	npm install --prefix "$dir" --no-audit --no-fund --silent "@microsoft/sarif-multitool-linux@$version" >&2
	# The package's postinstall script only does this; npm may not run it.
	chmod u+x "$bin"
fi
echo "$bin"
