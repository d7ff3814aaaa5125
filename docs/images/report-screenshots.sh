#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The screenshots of docs/reference/report.md: the commands of its examples, then each report opened in
# Debian's Chromium by the browser test's own check (tests/report/check_report.mjs), and the top of
# each page kept as docs/images/report-<name>.png.
# Usage (from the repository root, after `make test` or `make deps && make`): docs/images/report-screenshots.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
netdp=$root/build/release/bin/netdp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# A Muffliato report: the exact joint view and the random walk on the karate club.
"$netdp" account --graph karate --rounds 20 --sigma 1 --json --quiet --out muffliato.json
"$netdp" account --graph karate --method random-walk --rounds 3400 --sigma 20 --json --quiet --out random-walk.json
"$netdp" report --input muffliato.json random-walk.json --out muffliato.html
# A compare report: the MF paper's Figure 2 on the Florentine families.
"$netdp" compare --graph florentine --weights closed-row --rounds 10 --sigma 1 --json --quiet > compare.json
"$netdp" report --input compare.json --out compare.html
# A training report: DP-D-SGD at three noise levels on the karate club.
for sigma in 0.5 1 2; do
  "$netdp" train --set network.graph=karate --set algorithm.rounds=200 --set train.eval_every=10 \
    --set algorithm.sigma=$sigma --out "train-sigma$sigma" --quiet > /dev/null
done
"$netdp" report --input train-sigma0.5 train-sigma1 train-sigma2 --out training.html
cd "$root"
node tests/report/check_report.mjs "$work/shots" "$work"/muffliato.html "$work"/compare.html "$work"/training.html
for name in muffliato compare training; do
  /usr/bin/python3 -c 'import sys
from PIL import Image
image = Image.open(sys.argv[1])
top = image.crop((0, 0, image.width, min(image.height, int(sys.argv[3]))))
top.convert("P", palette=Image.ADAPTIVE, colors=128).save(sys.argv[2], optimize=True)' \
    "$work/shots/$name.png" "$root/docs/images/report-$name.png" 3200
done
ls -la "$root"/docs/images/report-*.png
