#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The report in a real browser: small runs of every kind on Zachary's karate club, the reports a
# user would make from them, and check_report.mjs opening each one offline in Debian's Chromium
# (no console error, every chart drawn, a screenshot that is not blank).
# Usage: browser_test.sh NETDP_BINARY SCREENSHOT_DIR
set -euo pipefail
netdp=$(realpath "${1:?usage: browser_test.sh NETDP_BINARY SCREENSHOT_DIR}")
shots=$(realpath -m "${2:?usage: browser_test.sh NETDP_BINARY SCREENSHOT_DIR}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ ! -x /usr/bin/chromium ]; then
  echo "FAIL: /usr/bin/chromium is missing (Debian's chromium; \`make test\` installs it)"; exit 1
fi
if [ ! -d "$root/node_modules/playwright-core" ] || [ ! -d "$root/node_modules/pngjs" ]; then
  echo "FAIL: $root/node_modules lacks playwright-core or pngjs (\`make deps\` runs npm ci)"; exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$shots"
cd "$work"
run() { "$netdp" "$@" --quiet; }
run account --graph karate --rounds 20 --sigma 1 --json > muffliato.json
run account --graph karate --method random-walk --rounds 3400 --sigma 20 --json > random-walk.json
run account --graph karate --method linear-system --rounds 10 --sigma 1 --json --summary-only > linear-summary.json
run compare --graph karate --rounds 10 --json > compare.json
run audit --graph karate --rounds 5 --trials 2000 --json > audit-0-1.json
run audit --graph karate --rounds 5 --trials 2000 --observer 0 --target 16 --json > audit-0-16.json
for sigma in 1 3; do
  run train --set network.graph=karate --set algorithm.rounds=30 --set train.eval_every=5 \
    --set algorithm.sigma=$sigma --out "train-sigma$sigma" > /dev/null
done
run report --input muffliato.json random-walk.json --out muffliato.html
run report --input compare.json --out compare.html
run report --input audit-0-1.json audit-0-16.json --out audit.html
run report --input train-sigma1 train-sigma3 --out training.html
run report --input muffliato.json linear-summary.json compare.json audit-0-1.json train-sigma1 --out everything.html
cd "$root"
exec node "$here/check_report.mjs" "$shots" "$work"/muffliato.html "$work"/compare.html "$work"/audit.html \
  "$work"/training.html "$work"/everything.html
