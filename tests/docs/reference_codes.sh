#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The netdp side of docs/how-to/reproduce-reference-codes.md: runs each netdp command of the page
# and checks that the numbers netdp prints, rounded up to the digits the page shows, are the
# numbers in the page's tables (and that each such number is in the page). The reference codes'
# own numbers are written in the page; this script needs neither their repositories nor the network.
# Usage: reference_codes.sh NETDP_BINARY
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 NETDP_BINARY" >&2; exit 2; }
netdp=$1
page="$(cd "$(dirname "$0")/../.." && pwd)/docs/how-to/reproduce-reference-codes.md"
[ -x "$netdp" ] || { echo "reference_codes: $netdp is not an executable" >&2; exit 2; }
[ -f "$page" ] || { echo "reference_codes: the page $page is missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

run() {  # run NAME ARGS...: the CSV of one netdp command of the page into $tmp/NAME.csv
  local name=$1
  shift
  "$netdp" account "$@" --csv --quiet > "$tmp/$name.csv" \
    || { echo "FAIL $name: netdp account $* exited with status $?" >&2; exit 1; }
}

page_text=$(<"$page")

# in_page NUMBER: the page shows NUMBER as a number of its own (not inside a longer one).
in_page() {
  local pattern="(^|[^0-9.])${1//./\\.}([^0-9]|$)"
  [[ $page_text =~ $pattern ]]
}

# expect CASE CSV FIELD ROW SHOWN [REFERENCE [OFFSET]]
#   ROW: "col=value[,col=value]" selects one row; "mean" takes the mean of FIELD over all rows.
#   The value (minus OFFSET) rounded up at SHOWN's last decimal place must be SHOWN, i.e.
#   SHOWN - unit < value <= SHOWN, and, given a REFERENCE (the reference code's number), equal it
#   to 1e-12 relative. SHOWN and REFERENCE must be in the page.
expect() {
  local name=$1 csv=$2 field=$3 row=$4 shown=$5 reference=${6:-} offset=${7:-0} message
  checks=$((checks + 1))
  if ! in_page "$shown"; then
    echo "FAIL $name: the page does not show $shown" >&2
    failures=$((failures + 1))
    return
  fi
  if [ -n "$reference" ] && ! in_page "$reference"; then
    echo "FAIL $name: the page does not show the reference's $reference" >&2
    failures=$((failures + 1))
    return
  fi
  if ! message=$(awk -F, -v field="$field" -v row="$row" -v shown="$shown" -v reference="$reference" \
        -v offset="$offset" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              if (!(field in col)) { print "netdp prints no column " field; bad = 1; exit }
              if (row != "mean") {
                nc = split(row, c, ",")
                for (j = 1; j <= nc; j++) { split(c[j], kv, "="); ck[j] = kv[1]; cv[j] = kv[2] } }
              next }
    row == "mean" { sum += $col[field]; n++; next }
    { for (j = 1; j <= nc; j++) if ($col[ck[j]] != cv[j]) next
      x = $col[field]; found = 1; exit }
    END {
      if (bad) exit 1
      if (row == "mean") { if (n == 0) { print "netdp prints no rows"; exit 1 } x = sum / n; found = 1 }
      if (!found) { print "netdp prints no row " row; exit 1 }
      v = x - offset
      d = index(shown, ".") ? length(shown) - index(shown, ".") : 0
      unit = 10 ^ (-d); tol = 1e-13 * (shown < 0 ? -shown : shown)
      if (!(v > shown - unit && v <= shown + tol)) {
        printf "netdp gives %.17g, the page shows %s (rounded up)\n", v, shown; exit 1 }
      if (reference != "") {
        e = v - reference; if (e < 0) e = -e
        if (e > 1e-12 * (reference < 0 ? -reference : reference)) {
          printf "netdp gives %.17g, the reference code %s\n", v, reference; exit 1 } }
    }' "$csv"); then
    echo "FAIL $name: $message" >&2
    failures=$((failures + 1))
  fi
}

# Muffliato: simulation() of totilas/muffliato, karate, target 0, T = 10, sigma = 1.
run muffliato_paper --graph karate --weights metropolis --rounds 10 --sigma 1 --target 0 \
  --bound paper --authors-convention --count-observer-noise
run muffliato_exact --graph karate --weights metropolis --rounds 10 --sigma 1 --target 0 --authors-convention
m=$tmp/muffliato_paper.csv
e=$tmp/muffliato_exact.csv
while read -r observer reference paper exact; do
  expect "muffliato --bound paper, observer $observer" "$m" uncapped_rdp_epsilon "observer=$observer" "$paper" "$reference"
  expect "muffliato default, observer $observer" "$e" rdp_epsilon "observer=$observer" "$exact"
done <<'CASES'
1 2.4670302232975065 2.467030224 1
2 2.2367947841193785 2.236794785 1
8 1.0359663592053372 1.03596636 1
16 0.3197695050235861 0.3197695051 0.9626970908
26 0.05922234459672629 0.0592223446 0.9731228826
33 1.0264470733562547 1.026447074 1
CASES
expect "muffliato --bound paper, mean" "$m" uncapped_rdp_epsilon mean 0.7460623287 0.7460623286259904
expect "muffliato default, mean" "$e" rdp_epsilon mean 0.9168281805
while read -r label shown flags; do
  # shellcheck disable=SC2086
  run "muffliato_16_$label" --graph karate --rounds 10 --sigma 1 --target 0 --observer 16 --bound paper $flags
  expect "muffliato observer 16, $flags" "$tmp/muffliato_16_$label.csv" uncapped_rdp_epsilon observer=16 "$shown"
done <<'CASES'
all 0.3197695051 --weights metropolis --authors-convention --count-observer-noise
no-count 0.4265476533 --weights metropolis --authors-convention
no-authors 0.2785684697 --weights metropolis --count-observer-noise
hamilton 0.3328935294 --weights hamilton --authors-convention --count-observer-noise
CASES

# Random walk: priv_global() of totilas/DPrandomwalk, davis, T = 862, sigma = 10, alpha = 2.
run rw_expected --graph davis --weights metropolis --method random-walk --rounds 862 --sigma 10 --alpha 2 \
  --contributions expected
run rw_default --graph davis --weights metropolis --method random-walk --rounds 862 --sigma 10 --alpha 2
# alpha T (H_T - ln T) / (sigma^2 n^2): what ln T in place of H_T takes off every pair
term=$(awk 'BEGIN { T = 862; n = 32; s = 10; a = 2; h = 0
                   for (i = T; i >= 1; i--) h += 1 / i
                   printf "%.17g\n", a * T * (h - log(T)) / (s * s * n * n) }')
checks=$((checks + 1))
if ! in_page 0.009727730596 || ! awk -v t="$term" 'BEGIN { exit !(t > 0.009727730595 && t <= 0.009727730596) }'; then
  echo "FAIL random walk: the H_T - ln T term is $term, the page shows 0.009727730596" >&2
  failures=$((failures + 1))
fi
x=$tmp/rw_expected.csv
d=$tmp/rw_default.csv
while read -r v u reference expected reproduced default count; do
  pair="random walk $v -> $u"
  expect "$pair, --contributions expected" "$x" uncapped_rdp_epsilon "observer_index=$v,target_index=$u" "$expected"
  expect "$pair, --contributions expected minus the H_T - ln T term (priv_global)" "$x" uncapped_rdp_epsilon \
    "observer_index=$v,target_index=$u" "$reproduced" "$reference" "$term"
  expect "$pair, default" "$d" rdp_epsilon "observer_index=$v,target_index=$u" "$default"
  expect "$pair, default count" "$d" contributions "observer_index=$v,target_index=$u" "$count"
done <<'CASES'
0 1 0.13000425896999657 0.1397319896 0.130004259 0.4253558476 82
0 18 0.21032529242231834 0.2200530231 0.2103252925 1.037465761 127
5 31 0.06489291986506404 0.07462065047 0.06489291987 0.3490376597 126
17 20 0.05968857804101813 0.06941630864 0.05968857805 0.2190398602 85
CASES
expect "random walk, --contributions expected, mean" "$x" uncapped_rdp_epsilon mean 0.1119435959
expect "random walk, --contributions expected minus the term, mean (priv_global)" "$x" uncapped_rdp_epsilon \
  mean 0.1022158653 0.10221586529081689 "$term"
expect "random walk, default, mean" "$d" rdp_epsilon mean 0.4213573261

# Matrix factorization: compute_muffliato_privacy_loss of dimiarbre/MFDL, florentine, attacker
# Acciaiuoli, T = 10, sigma = 1.
run mf --graph florentine --weights closed-row --method mf --rounds 10 --sigma 1 --observer Acciaiuoli
f=$tmp/mf.csv
while read -r target reference sum_abs certified; do
  expect "mf target $target, sensitivity_squared_sum_abs (MFDL)" "$f" sensitivity_squared_sum_abs "target=$target" \
    "$sum_abs" "$reference"
  expect "mf target $target, rdp_epsilon" "$f" rdp_epsilon "target=$target" "$certified"
done <<'CASES'
Medici 10.91095334858487 10.91095335 9.398596406
Barbadori 0.3324859210627497 0.3324859211 0.3324859211
Ridolfi 0.5089556267624895 0.5089556268 0.5089556268
Tornabuoni 0.5363897540860618 0.5363897541 0.5363897541
Albizzi 0.43650769551129287 0.4365076956 0.4365076956
Salviati 0.45592123883927943 0.4559212389 0.4559212389
Castellani 0.13009248480240315 0.1300924849 0.1300924849
Strozzi 0.15917532958599862 0.1591753296 0.1591753296
Pazzi 0.12787332049697292 0.1278733205 0.1278733205
Guadagni 0.2517727721468753 0.2517727722 0.2517727722
Ginori 0.06762433825688102 0.06762433826 0.06762433826
Peruzzi 0.06035845918342569 0.06035845919 0.06035845919
Bischeri 0.06475224118296828 0.06475224119 0.06475224119
Lamberteschi 0.021246392539540967 0.02124639254 0.02124639254
CASES
expect "mf, sensitivity_squared_sum_abs, mean" "$f" sensitivity_squared_sum_abs mean 1.004579209
expect "mf, rdp_epsilon, mean" "$f" rdp_epsilon mean 0.8965537129
expect "mf Medici, sensitivity_squared_exact" "$f" sensitivity_squared_exact target=Medici 9.398596406
expect "mf Medici, sensitivity_squared_ones" "$f" sensitivity_squared_ones target=Medici 6.847

if [ "$failures" != 0 ]; then
  echo "reference_codes: $failures of $checks checks failed (docs/how-to/reproduce-reference-codes.md)" >&2
  exit 1
fi
echo "reference_codes: $checks numbers of docs/how-to/reproduce-reference-codes.md match netdp"
