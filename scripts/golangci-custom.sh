#!/usr/bin/env bash
# Builds a golangci-lint with goadvise's plugin from this checkout, with the
# repository's .custom-gcl.yml as docs/ci.md tells users to, and runs it on
# testdata/demo: the demo's known deepequal finding must be reported.
#
# golangci-lint is installed from the Go module proxy at the version the
# recipe names. "golangci-lint custom" then clones golangci-lint's git
# repository from GitHub at that version; so that the build needs nothing
# but the module proxy, this script redirects that clone (git's
# url.<base>.insteadOf, through GIT_CONFIG_* variables, which golangci-lint
# passes on to git) to a local repository made from the module proxy's copy
# of the same version. The custom binary's go mod tidy and go build use the
# module proxy as any build does.
#
# usage: scripts/golangci-custom.sh   (from anywhere; prints the run's output)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's/^version: *//p' .custom-gcl.yml)
module=github.com/golangci/golangci-lint/v2
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOFLAGS=${GOFLAGS:-}

start=$SECONDS
echo "golangci-custom: installing golangci-lint $version from the module proxy" >&2
GOBIN=$work/bin go install "$module/cmd/golangci-lint@$version"

# The clone golangci-lint custom makes, from the module proxy's copy.
src=$(cd "$work" && go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$src" ] || [ ! -f "$src/go.mod" ]; then
	echo "golangci-custom: go mod download $module@$version gave no source directory" >&2; exit 1
fi
mirror=$work/golangci-lint
cp -R "$src" "$mirror"
chmod -R u+w "$mirror"
git -C "$mirror" init -q
git -C "$mirror" add -A
git -C "$mirror" -c user.name=goadvise-ci -c user.email=ci@invalid commit -q -m "$module@$version from the module proxy"
git -C "$mirror" tag "$version"
export GIT_CONFIG_COUNT=1
export GIT_CONFIG_KEY_0="url.file://$mirror.insteadOf"
export GIT_CONFIG_VALUE_0="https://github.com/golangci/golangci-lint.git"

echo "golangci-custom: golangci-lint custom (builds golangci-lint with the plugin from $root)" >&2
"$work/bin/golangci-lint" custom --destination "$work/bin" --name custom-gcl
echo "golangci-custom: built $("$work/bin/custom-gcl" version --short 2>/dev/null || echo custom-gcl) in $((SECONDS - start)) s" >&2

cat >"$work/golangci.yml" <<'EOF'
version: "2"
run:
  relative-path-mode: gomod
linters:
  default: none
  enable:
    - goadvise
  settings:
    custom:
      goadvise:
        type: module
        description: Go optimization advisor
EOF
set +e
out=$("$work/bin/custom-gcl" run -c "$work/golangci.yml" --output.text.path stdout ./testdata/demo/... 2>&1)
status=$?
set -e
echo "$out"
if [ "$status" -ne 1 ]; then
	echo "golangci-custom: custom-gcl run exited $status, want 1 (issues found)" >&2; exit 1
fi
want='^testdata/demo/wire/wire.go:65:5: deepequal: reflect.DeepEqual on Header'
if ! grep -q "$want" <<<"$out"; then
	echo "golangci-custom: missing expected finding: $want" >&2; exit 1
fi
echo "golangci-custom: ok in $((SECONDS - start)) s" >&2
