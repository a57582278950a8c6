#!/bin/sh
# screenshot: how a browser shows a report. Renders DIR/index.html (from `dlbtune report --out DIR`) with
# headless Chromium (Debian: chromium) into a PNG, so a report's look can be checked and kept (docs/).
#   reports/screenshot.sh DIR OUT.png [WIDTHxHEIGHT]     (default 1280x2400)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 REPORT_DIR OUT.png [WIDTHxHEIGHT]" >&2; exit 2; }
dir=$1 out=$2 size=${3:-1280x2400}
[ -s "$dir/index.html" ] || { echo "$0: $dir/index.html: no report there (dlbtune report --out $dir)" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "$0: no Chromium found (Debian: apt-get install chromium)" >&2; exit 1; }
abs=$(cd "$dir" && pwd)
case $out in /*) ;; *) out="$(pwd)/$out" ;; esac
rm -f "$out"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$(echo "$size" | tr x ,)" \
	--screenshot="$out" "file://$abs/index.html" >/dev/null 2>&1
[ -s "$out" ] || { echo "$0: $browser wrote no screenshot" >&2; exit 1; }
echo "$out"
