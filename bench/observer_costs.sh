#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The cost of one observer for each accountant, from which a cluster run is predicted
# (docs/reference/performance.md, "Many processes: mpirun"): `netdp account --observers-sample K` on
# Barabási–Albert graphs of 10³ and 10⁴ nodes (m = 3, T = 10, one thread), K observers against
# one, so that per observer = (wall(K) − wall(1)) / (K − 1) and the fixed part = wall(1) − that.
# A run longer than LIMIT seconds (default 300) is stopped and reported as such.
# Prints a Markdown table, writes bench/results/observer_costs.json, and prints the extrapolation to
# 10⁵ and 10⁶ nodes on 64, 256 and 1024 cores. Usage (after `make build`):
#   bench/observer_costs.sh [BUILD_DIR]        K="64 8" LIMIT=300 SIZES="1000 10000"
set -euo pipefail
build=${1:-build/release}
netdp=$(realpath "$build/bin/netdp")
# K observers at each size (one number, or one per size): enough that K observers take well over
# the 10 ms resolution of the wall time.
read -r -a ks <<< "${K:-64 8}"
limit=${LIMIT:-300}
sizes=${SIZES:-1000 10000}
here=$(cd "$(dirname "$0")" && pwd)
results=$here/results
mkdir -p "$results"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
records=()
measure() {  # measure OBSERVERS ARGS...: sets WALL and PEAK_MB, or WALL=timeout
  local observers=$1
  shift
  if OMP_NUM_THREADS=1 timeout "$limit" /usr/bin/time -f "%e %M" -o "$out/time" "$netdp" account "$@" \
    --observers-sample "$observers" --seed 1 --json --summary-only --quiet --out "$out/out.json" > /dev/null 2> "$out/err"; then
    read -r WALL PEAK_KB < "$out/time"
    PEAK_MB=$((PEAK_KB / 1024))
  else
    WALL=timeout
    PEAK_MB=0
  fi
}
echo "| accountant | nodes | observers sampled | fixed (s) | per observer (s) | peak MB | all pairs, 1 core (h) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
size_index=0
for n in $sizes; do
  k=${ks[$size_index]:-${ks[-1]}}
  size_index=$((size_index + 1))
  for method in muffliato random-walk linear-system mf; do
    args=(--graph "ba:n=$n,m=3,seed=1" --method "$method" --rounds 10)
    [ "$method" = random-walk ] && args=(--graph "ba:n=$n,m=3,seed=1" --method random-walk --rounds $((10 * n)) --sigma 5)
    measure 1 "${args[@]}"
    one=$WALL
    measure "$k" "${args[@]}"
    many=$WALL
    if [ "$one" = timeout ] || [ "$many" = timeout ]; then
      echo "| $method | $n | $k | - | over ${limit} s | - | - |"
      records+=("{\"method\": \"$method\", \"nodes\": $n, \"observers\": $k, \"timeout_s\": $limit}")
      continue
    fi
    per=$(awk -v a="$many" -v b="$one" -v k="$k" 'BEGIN { p = (a - b) / (k - 1); if (p < 0) p = 0; printf "%.3g", p }')
    fixed=$(awk -v b="$one" -v p="$per" 'BEGIN { f = b - p; if (f < 0) f = 0; printf "%.3g", f }')
    hours=$(awk -v f="$fixed" -v p="$per" -v n="$n" 'BEGIN { printf "%.3g", (f + n * p) / 3600 }')
    echo "| $method | $n | $k | $fixed | $per | $PEAK_MB | $hours |"
    records+=("{\"method\": \"$method\", \"nodes\": $n, \"observers\": $k, \"wall_1_s\": $one, \"wall_k_s\": $many, \"fixed_s\": $fixed, \"per_observer_s\": $per, \"peak_mb\": $PEAK_MB, \"command\": \"netdp account ${args[*]} --observers-sample $k --seed 1 --json --summary-only\"}")
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "{\"machine\": \"$(nproc) cores\", \"threads\": 1, \"load_before\": \"$load_before\", \"load_after\": \"$load_after\","
  echo " \"date\": \"$(date -u +%F)\", \"runs\": ["
  for i in "${!records[@]}"; do echo "  ${records[$i]}$([ "$i" -lt $((${#records[@]} - 1)) ] && echo ,)"; done
  echo "]}"
} > "$results/observer_costs.json"
echo
echo "load before: $load_before; after: $load_after; written to $results/observer_costs.json"
# The extrapolation: per observer c(n) = c(n₁) (n / n₁)^a with a from the two sizes measured, the
# fixed part linear in n, and an all-pairs run on P cores ≈ fixed + 1.5 n c(n) / P (1.5: the load
# imbalance measured in docs/reference/performance.md); rank 0's joined account holds 41 bytes a pair.
/usr/bin/python3 - "$results/observer_costs.json" << 'PY'
import json, math, sys
runs = [r for r in json.load(open(sys.argv[1]))["runs"] if "per_observer_s" in r]
print("\n| accountant | nodes | per observer (s) | all pairs on 64 / 256 / 1024 cores | rank 0's account |")
print("|---|---:|---:|---|---:|")
for method in dict.fromkeys(r["method"] for r in runs):
    sizes = sorted((r for r in runs if r["method"] == method), key=lambda r: r["nodes"])
    if len(sizes) < 2:
        continue
    lo, hi = sizes[0], sizes[-1]
    grow = math.log(max(hi["per_observer_s"], 1e-6) / max(lo["per_observer_s"], 1e-6)) / math.log(hi["nodes"] / lo["nodes"])
    for n in (10**5, 10**6):
        per = hi["per_observer_s"] * (n / hi["nodes"]) ** grow
        fixed = hi["fixed_s"] * (n / hi["nodes"])
        walls = ["%.3g h" % ((fixed + 1.5 * n * per / p) / 3600) for p in (64, 256, 1024)]
        print("| %s | 10^%d | %.3g (n^%.2f) | %s | %.3g TB |" % (method, round(math.log10(n)), per, grow, " / ".join(walls), 41 * n * n / 1e12))
PY
