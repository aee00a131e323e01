#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests of package report/html (they
# load the HTML reports in headless Chromium and assert on the DOM). It is
# idempotent: when chromium is already installed it does nothing. Without
# root (or sudo without a password) it prints how to install it and exits
# 0, and the browser tests skip themselves with a message saying so.
set -euo pipefail

for bin in /usr/bin/chromium /usr/bin/chromium-browser; do
	if [ -x "$bin" ]; then
		echo "chromium already installed: $bin"
		exit 0
	fi
done

if [ "$(id -u)" -eq 0 ]; then
	as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	as_root=(sudo -n)
else
	echo "install-chromium: not root and no password-less sudo; install it with: apt-get install chromium" >&2
	echo "install-chromium: the browser tests of package report/html will be skipped" >&2
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-chromium: apt-get not found; install chromium with your package manager" >&2
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq chromium >/dev/null
echo "installed $(chromium --version 2>/dev/null || echo chromium)"
