#!/usr/bin/env bash
# Regenerates docs/report.png, the screenshot of the demo's HTML report shown
# in README.md: goadvise check ranks the demo's findings by its CPU profile,
# writes the page, and headless Chromium (scripts/install-chromium.sh)
# renders it at 1280x1600 with the first finding that has a fix expanded.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium=${GOADVISE_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
	echo "report-screenshot: chromium not found; run scripts/install-chromium.sh" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/goadvise" ./cmd/goadvise

# check exits 3 when it reports findings, as it does on the demo.
set +e
"$tmp/goadvise" check -profile testdata/demo/cpu.pprof -all -format html -o "$tmp/report.html" ./testdata/demo/... 2>"$tmp/stderr"
status=$?
set -e
if [ "$status" -ne 3 ]; then
	cat "$tmp/stderr" >&2
	echo "report-screenshot: goadvise check exited $status, want 3 (findings)" >&2
	exit 1
fi

# Expand the first finding that has a suggested fix, to show its excerpt and diff.
open=$(grep -o '<tr class="finding" id="finding-[0-9]*"[^>]*data-fix="true"' "$tmp/report.html" | head -1 | sed 's/.*id="finding-\([0-9]*\)".*/\1/' || true)
frag=${open:+#open=$open}

mkdir -p docs
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/profile" --hide-scrollbars --virtual-time-budget=2000 \
	--window-size=1280,1600 --screenshot="$tmp/report.png" "file://$tmp/report.html$frag" >/dev/null 2>"$tmp/chromium.log" || {
	cat "$tmp/chromium.log" >&2
	exit 1
}
mv "$tmp/report.png" docs/report.png
echo "wrote docs/report.png ($(wc -c <docs/report.png) bytes)${open:+, finding $open expanded}"
