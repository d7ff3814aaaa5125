#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The exact joint view with its certificates (docs/explanation/certificates.md) on the graphs of its speed
# targets: wall time and peak memory of the whole command (median of REPEAT runs, default 1), the
# certificate counts, and the word operations of the reductions modulo p (an upper bound:
# Σ_v m_v · n · min(m_v, n) for the m_v = deg(v)·T messages of observer v). Writes
# bench/results/cert_<graph>.json for each case (bench/render_performance.py puts them in
# docs/reference/performance.md). Usage (after `make build`):
#   bench/certificate_targets.sh [BUILD_DIR]        # default build/release; EGOS="414 0" for a subset
#   ONLY='ego' bench/certificate_targets.sh         # only the cases whose file name matches (grep -E)
# The SNAP ego graphs need ../shared/datasets; without it they are reported as not run.
set -euo pipefail
build=${1:-build/release}
netdp=$build/bin/netdp
repeat=${REPEAT:-1}
only=${ONLY:-}
here=$(dirname "$0")
[ -x "$netdp" ] || { echo "$netdp is missing: build it first (make build)" >&2; exit 2; }
data=../shared/datasets/graphs/facebook
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
SHOWN_NETDP=$netdp

words() {  # words GRAPH-ARGS...: the bound on word operations, from the graph netdp reads
  "$netdp" graph "$@" --out "$out/g.edges" > /dev/null
  /usr/bin/python3 - "$out/g.edges" 20 <<'PY'
import sys, collections
deg = collections.Counter()
nodes = set()
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    u, v = line.split()[:2]
    deg[u] += 1; deg[v] += 1; nodes |= {u, v}
n, T = len(nodes), int(sys.argv[2])
print(f"{sum(d * T * n * min(d * T, n) for d in deg.values()):.2e}")
PY
}

run() {  # run ID LABEL ROUNDS GRAPH-ARGS...: writes bench/results/ID.json
  local id=$1 label=$2 rounds=$3
  shift 3
  [ -z "$only" ] || grep -qE "$only" <<< "$id" || return 0
  local command=("$netdp" account "$@" --rounds "$rounds" --sigma 1 --json --summary-only --quiet)
  if ! timed_runs "$out" "$repeat" "${command[@]}"; then
    printf '| %s | FAILED: %s |\n' "$label" "$(tail -1 "$out/stderr")"
    return
  fi
  local kinds ops
  kinds=$(/usr/bin/python3 - "$out/stdout" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
kinds = ", ".join(f"`{k}` {v:,}" for k, v in s["certificates"].items() if v)
print(f"{kinds}; P(wrong) <= {s['certificate_failure_probability']:.1e}")
PY
)
  ops=$(words "$@")
  write_result "$here/results/$id.json" "$id" "Exact joint view with its certificates (the default), all pairs, $label, σ = 1" \
    "$(shown_command "${command[@]}")" bench/certificate_targets.sh false \
    "Certificates: $kinds. Word operations modulo p (an upper bound): $ops."
  printf '| %s | %s s | %s MB | %s | %s |\n' "$label" "$MEDIAN_WALL" "$PEAK_MB" "$ops" "$kinds"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(date -u '+%F %H:%M UTC'); median of $repeat"
echo
echo '| command (all pairs, T as given, σ = 1) | wall | peak memory | word ops mod p (bound) | certificates |'
echo '|---|---|---|---|---|'
run cert_cube11 "hypercube d=11, T = 19" 19 --graph hypercube:d=11
for ego in ${EGOS:-414 0 1912}; do
  if [ -f "$data/$ego.edges" ]; then
    run "cert_ego$ego" "ego-Facebook $ego (--lcc), T = 20" 20 --graph "edgelist:$data/$ego.edges" --lcc
  else
    printf '| ego-Facebook %s | not run: %s is missing |\n' "$ego" "$data"
  fi
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
