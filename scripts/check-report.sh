#!/usr/bin/env bash
# Check a report page in headless Chromium: render report.html to a PNG and fail if the
# page lacks the charts it should have.
#
# Usage: scripts/check-report.sh DIR_OR_HTML [PNG] [CHART_ID...]
#   DIR_OR_HTML  a results directory holding report.html (written by `sim report DIR`),
#                or the page itself
#   PNG          the screenshot to write (default: report.png beside the page)
#   CHART_ID     chart ids the page must hold (default: by page kind, see below)
#
# Installs Debian's `chromium` package if no Chromium is found (needs root and apt; set
# CHROMIUM=/path/to/chromium to use another). Not part of CI: CI checks the same chart
# ids in the HTML text (tests/integration/report.rs) without a browser.
#
# What it checks:
#   1. every expected chart id is in the HTML as an <svg id="..."> element, and the page
#      is self-contained (no <script>, no http(s) resources);
#   2. Chromium renders the page without error (--screenshot) and, with --dump-dom, the
#      parsed DOM still holds every chart (so the SVG is well-formed enough for a browser);
#   3. the screenshot is a non-trivial PNG (not blank: larger than 20 kB).
# Look at the PNG yourself as well: the script cannot judge overlapping labels.
set -euo pipefail

target=${1:?usage: scripts/check-report.sh DIR_OR_HTML [PNG] [CHART_ID...]}
if [[ -d "$target" ]]; then page="$target/report.html"; else page="$target"; fi
[[ -f "$page" ]] || { echo "error: no report page at '$page' (run: sim report DIR)" >&2; exit 2; }
page=$(realpath "$page")
png=${2:-$(dirname "$page")/report.png}
shift $(( $# >= 2 ? 2 : $# ))

# Expected charts by page kind (the ids are set in src/report).
if (( $# > 0 )); then
  expected=("$@")
elif grep -q 'id="chart-sweep-win-rates"' "$page" || grep -q '<h2>Cells</h2>' "$page"; then
  expected=(chart-sweep-win-rates chart-sweep-seats)
elif grep -q '<h2>Head to head</h2>' "$page"; then
  expected=(chart-ratings chart-head-to-head)
elif grep -q '<h2>Loss against equilibrium</h2>' "$page"; then
  expected=(chart-endgame-loss)
else
  # A tournament: the win-rate chart only with two or more agents (a chart of one bar is
  # left out), i.e. with two or more rows in the Win rates table.
  agents=$(sed -n '/<h2>Win rates<\/h2>/,/<\/table>/p' "$page" | grep -c '^<tr><td>' || true)
  if (( agents >= 2 )); then expected=(chart-win-rates chart-seats); else expected=(chart-seats); fi
fi
# Decisiveness (--decisiveness, decisiveness = true): its charts when its section is there.
if (( $# == 0 )); then
  # The line chart needs a percent point with a leader (a row of its table); the bar chart
  # needs lead_changes.csv with games (its paragraph).
  grep -q '% of the rounds</td>' "$page" && expected+=(chart-decisiveness)
  grep -q 'Lead changes (lead_changes.csv)' "$page" && expected+=(chart-lead-changes)
  grep -q '<h2>Decisiveness by cell</h2>' "$page" && expected+=(chart-sweep-decisiveness)
fi

fail=0
for id in "${expected[@]}"; do
  grep -q "<svg id=\"$id\"" "$page" || { echo "FAIL: no chart '$id' in $page" >&2; fail=1; }
done
if grep -qiE '<script|(src|href)="https?:' "$page"; then
  echo "FAIL: $page is not self-contained (script or remote resource)" >&2; fail=1
fi

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z "$chromium" ]]; then
  echo "installing Debian's chromium package..." >&2
  apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
  chromium=$(command -v chromium)
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
       --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile")
"$chromium" "${flags[@]}" --screenshot="$png" --window-size=1200,3000 "file://$page" >/dev/null 2>&1
[[ -s "$png" ]] || { echo "FAIL: Chromium wrote no screenshot" >&2; exit 1; }
size=$(stat -c %s "$png")
(( size > 20000 )) || { echo "FAIL: the screenshot is almost empty ($size bytes)" >&2; fail=1; }
dom=$("$chromium" "${flags[@]}" --dump-dom "file://$page" 2>/dev/null)
for id in "${expected[@]}"; do
  grep -q "id=\"$id\"" <<<"$dom" || { echo "FAIL: Chromium's DOM lacks chart '$id'" >&2; fail=1; }
done
charts=$(grep -o '<svg id="chart-' <<<"$dom" | wc -l)
if (( fail )); then exit 1; fi
echo "ok: $page: $charts charts, expected ${expected[*]}; screenshot $png ($size bytes)"
