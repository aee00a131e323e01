#!/bin/sh
# program-std.sh runs goadvise's whole-program passes (package wholeprog) on
# the whole standard library and prints counts, wall time and peak memory.
#
# Usage: scripts/program-std.sh [-passes devirt,loopalloc] [-closed] [-show N] [packages]
#
# The default is the devirt pass on std. std has no main package, so its
# callers are unknown and devirt reports nothing unless -closed is given
# (the counts of candidate call sites are printed either way). -passes devirt,loopalloc also
# compiles every package with the compiler's optimization log (cached by
# goadvise under $GOADVISE_CACHE or the user cache directory), which takes
# minutes the first time.
set -eu
cd "$(dirname "$0")/.."
go build -o "${TMPDIR:-/tmp}/goadvise-programstd" ./scripts/programstd
exec "${TMPDIR:-/tmp}/goadvise-programstd" "$@"
