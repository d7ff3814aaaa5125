#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The commands a user types, timed whole (process start to exit): the median wall and CPU time
# (user + system) of REPEAT runs (default 3; REPEAT_LONG, default 1, for the cases of ten seconds or
# more), the peak memory, one process per run, by /usr/bin/time; beside them the numpy/scipy scripts
# of bench/baselines/ (Debian's python3-numpy, -scipy) for the same result, in the same run.
# Writes bench/results/<case>.json for each case (the table of docs/reference/performance.md:
# /usr/bin/python3 bench/render_performance.py) and prints a summary. Usage (after `make build`):
#   bench/whole_command.sh [BUILD_DIR]             # default build/release
#   ONLY='cube_' bench/whole_command.sh            # only the cases whose name matches (grep -E)
#   ESTIMATES_ONLY=1 bench/whole_command.sh        # only refresh the memory estimates in the files
# Each file also holds netdp's own memory estimate for the command (memory_estimate: the figure of its
# refusal under --max-memory 1M, which it computes before allocating), to set beside the measured peak.
# The SNAP cases need ../shared/datasets; without it they are skipped (their files are left as they are).
set -euo pipefail
build=${1:-build/release}
netdp=$build/bin/netdp
repeat=${REPEAT:-3}
repeat_long=${REPEAT_LONG:-1}
only=${ONLY:-}
estimates_only=${ESTIMATES_ONLY:-}
for r in "$repeat" "$repeat_long"; do
  [[ "$r" =~ ^[1-9][0-9]*$ ]] || { echo "REPEAT and REPEAT_LONG must be whole numbers >= 1, got '$r'" >&2; exit 2; }
done
[ -x "$netdp" ] || { echo "$netdp is missing: build it first (make build)" >&2; exit 2; }
here=$(dirname "$0")
results=$here/results
mkdir -p "$results"
data=../shared/datasets/graphs/facebook
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
SHOWN_NETDP=$netdp
SHOWN_SCRATCH=$out

comparisons=()
baseline() {  # baseline CASE TITLE SCRIPT ARGS...: a bench/baselines/ script, a comparison of the next case
  local id=$1 title=$2 script=$3
  shift 3
  [ -z "$only" ] || grep -qE "$only" <<< "$id" || return 0
  [ -z "$estimates_only" ] || return 0
  if ! timed_runs "$out" "$repeat" /usr/bin/python3 "$here/baselines/$script" "$@"; then
    echo "$id: the baseline $script failed: $(tail -1 "$out/stderr")" >&2
    return
  fi
  comparisons+=("$(measurement_json "$title" "/usr/bin/python3 bench/baselines/$script $*")")
}

memory_estimate() {  # memory_estimate ARGS...: netdp's estimate for `netdp ARGS` as JSON, {} if it has none
  [ "$1" = account ] || { echo '{}'; return; }
  { timeout 60 "$netdp" "$@" --max-memory 1M 2>&1 > /dev/null || true; } | /usr/bin/python3 -c '
import json, re, sys
m = re.search(r"error: (.*?) needs about ([0-9.]+) (kB|MB|GB)", sys.stdin.read())
scale = {"kB": 1 / 1000, "MB": 1, "GB": 1000}
print(json.dumps({"memory_estimate": {"mb": round(float(m.group(2)) * scale[m.group(3)], 1), "what": m.group(1)}}
                 if m else {}, ensure_ascii=False))'
}

case_run() {  # case_run CASE REPEAT TITLE NOTES ARGS...: netdp ARGS, written to results/CASE.json
  # VARIANT_ENV=NAME=VALUE (for this call): the same command under that environment, as a comparison.
  local id=$1 runs=$2 title=$3 notes=$4
  shift 4
  [ -z "$only" ] || grep -qE "$only" <<< "$id" || { comparisons=(); return 0; }
  local estimate
  estimate=$(memory_estimate "$@")
  if [ -n "$estimates_only" ]; then
    [ -f "$results/$id.json" ] && /usr/bin/python3 - "$results/$id.json" "$estimate" << 'EOF'
import json, sys
path, estimate = sys.argv[1:]
data = json.load(open(path, encoding="utf-8"))
data.pop("memory_estimate", None)
data.update(json.loads(estimate))
with open(path, "w", encoding="utf-8") as f:
    f.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
EOF
    comparisons=()
    return 0
  fi
  if [ -n "${VARIANT_ENV:-}" ]; then
    if timed_runs "$out" "$runs" env "$VARIANT_ENV" "$netdp" "$@"; then
      comparisons+=("$(measurement_json "the same with $VARIANT_ENV" "$VARIANT_ENV $(shown_command "$netdp" "$@")")")
    fi
  fi
  if ! timed_runs "$out" "$runs" "$netdp" "$@"; then
    echo "$id: FAILED: $(tail -1 "$out/stderr")" >&2
    comparisons=()
    return
  fi
  RESULT_EXTRA=$estimate write_result "$results/$id.json" "$id" "$title" "$(shown_command "$netdp" "$@")" \
    "bench/whole_command.sh" false "$notes" "${comparisons[@]}"
  printf '%-28s %7s s wall %7s s CPU %6s MB  (load %s -> %s)\n' "$id" "$MEDIAN_WALL" "$MEDIAN_CPU" "$PEAK_MB" \
    "$LOAD_BEFORE" "$LOAD_AFTER"
  comparisons=()
}

python_baseline() {  # python_baseline CASE TITLE CODE: `import netdp` (BUILD_DIR/python), a comparison of the next case
  local id=$1 title=$2 code=$3
  [ -z "$only" ] || grep -qE "$only" <<< "$id" || return 0
  [ -z "$estimates_only" ] || return 0
  [ -d "$build/python" ] || { echo "($id: no $build/python: make python for the Python comparison)" >&2; return 0; }
  if ! timed_runs "$out" "$repeat" env PYTHONPATH="$build/python" /usr/bin/python3 -c "$code"; then
    echo "$id: the Python comparison failed: $(tail -1 "$out/stderr")" >&2
    return
  fi
  comparisons+=("$(measurement_json "$title" "PYTHONPATH=build/release/python /usr/bin/python3 -c \"$code\"")")
}

snap() { [ -f "$data/facebook_combined.txt" ] || { echo "(skipped $1: $data is missing)" >&2; return 1; }; }

cube=(account --graph hypercube:d=11 --method muffliato --rounds 19 --sigma 1 --quiet)
baseline cube_paper "numpy/scipy: Theorem 1 for all pairs, ε by brentq for each distinct μ" \
  muffliato_theorem1.py 11 19 1
case_run cube_paper "$repeat" "Muffliato Theorem 1 (--bound paper), all 4.2 M pairs of hypercube d=11, T=19" \
  "The numpy script's μ matrix (its 4th argument, OUT.npy) equals netdp's --out F.npy --field mu to 5.9e-16 relative off the diagonal (hypercube d = 8, T = 15, σ = 1)." \
  "${cube[@]}" --bound paper --json --summary-only
case_run cube_paper_csv "$repeat" "Muffliato Theorem 1, hypercube d=11, T=19, every pair written as CSV" "" \
  "${cube[@]}" --bound paper --csv --out "$out/pairs.csv"
case_run cube_paper_npy "$repeat" "Muffliato Theorem 1, hypercube d=11, T=19, the n × n matrix of ε written as .npy" "" \
  "${cube[@]}" --bound paper --out "$out/eps.npy"
python_baseline cube_exact "the same account through import netdp (every pair's row kept as numpy columns)" \
  "import netdp; r = netdp.account('hypercube:d=11', rounds=19); print(r.summary['pairs'])"
case_run cube_exact "$repeat" "Muffliato exact joint view with its certificates (the default), hypercube d=11, T=19" \
  "One view per symmetry orbit of observers: the generator's symmetries are checked on W." \
  "${cube[@]}" --json --summary-only
# The same hypercube as an edge list carries no symmetry hints: every observer's view and every
# target's return-time law is computed (docs/reference/accounting-muffliato.md, "Observers alike by symmetry").
"$netdp" graph --graph hypercube:d=11 --out "$out/hypercube11.edges" > /dev/null
edges_note="hypercube11.edges: build/release/bin/netdp graph --graph hypercube:d=11 --out hypercube11.edges (an edge list has no symmetry hints)."
case_run cube_exact_edgelist "$repeat_long" "Muffliato exact joint view, hypercube d=11 read as an edge list (no symmetry hints), T=19" \
  "$edges_note" account --graph "edgelist:$out/hypercube11.edges" --method muffliato --rounds 19 --sigma 1 \
  --quiet --json --summary-only
walk=(account --graph hypercube:d=11 --method random-walk --rounds 1150 --sigma 20 --alpha 4 --quiet)
VARIANT_ENV=NETDP_HUGE_PAGES=0 case_run walk_cube "$repeat" "Random walk (valid visit bound, the default), all pairs of hypercube d=11, T=1150, σ=20, α=4" \
  "The numpy script computes the paper's count T/n only: compare with walk_cube_expected. NETDP_HUGE_PAGES=0 turns off the transparent huge pages netdp asks glibc for." \
  "${walk[@]}" --json --summary-only
baseline walk_cube_expected "numpy/scipy: Theorem 3 with S_T(W) by numpy.linalg.eigh, the paper's count" \
  random_walk_theorem3.py 11 1150 20 4
case_run walk_cube_expected "$repeat" "Random walk with the paper's count T/n (--contributions expected: not a bound), hypercube d=11, T=1150" \
  "The numpy script's ε matrix (its 5th argument, OUT.npy) equals netdp's --contributions expected --out F.npy to 2.3e-14 relative (hypercube d = 6, T = 6400, σ = 100, α = 30)." \
  "${walk[@]}" --contributions expected --json --summary-only
case_run walk_cube_edgelist "$repeat" "Random walk, hypercube d=11 read as an edge list (no symmetry hints), T=1150" \
  "$edges_note" account --graph "edgelist:$out/hypercube11.edges" --method random-walk --rounds 1150 --sigma 20 \
  --alpha 4 --quiet --json --summary-only
case_run walk_cube_npy "$repeat" "Random walk on hypercube d=11, the n × n matrix of ε written as .npy" "" \
  "${walk[@]}" --out "$out/walk.npy"
if snap facebook_combined; then
  fb=(--graph "edgelist:$data/facebook_combined.txt")
  case_run fb_paper "$repeat" "Muffliato Theorem 1, all 16.3 M pairs of facebook_combined (4,039 nodes), T=20" "" \
    account "${fb[@]}" --method muffliato --bound paper --rounds 20 --sigma 1 --json --summary-only --quiet
  case_run fb_walk "$repeat_long" "Random walk, all 16.3 M pairs of facebook_combined, T=40390, σ=20 (valid bound)" "" \
    account "${fb[@]}" --method random-walk --rounds 40390 --sigma 20 --json --summary-only --quiet
  case_run fb_securesum "$repeat_long" "Secure summation (KK Theorem 8), all 16.3 M pairs of facebook_combined, T=50, scalar releases" "" \
    account "${fb[@]}" --method linear-system --rounds 50 --release-dimension 1 --json --summary-only --quiet
  ego=(account --graph "edgelist:$data/1912.edges" --lcc --method muffliato --bound paper --rounds 20 --json
    --summary-only --quiet)
  case_run ego1912_paper "$repeat" "Muffliato Theorem 1, ego-Facebook 1912 (LCC, 744 nodes), T=20, one σ" "" \
    "${ego[@]}" --sigma 1
  case_run ego1912_calibrated "$repeat" "Muffliato Theorem 1, ego-Facebook 1912, σ calibrated for a mean ε of 1" \
    "Three exact evaluations of the mean after a binned bracket and one Newton step." \
    "${ego[@]}" --target-epsilon 1 --calibrate-on mean
fi
case_run kk_fig3 "$repeat_long" "KK Fig. 3 accountant: ER(100, 0.2) closed-row, plain view (Theorem 10), T=100, vector releases" \
  "One certified SDP per pair whose K_u has a negative entry (9,900 pairs)." \
  account --graph er:n=100,p=0.2,seed=1,connected=1 --weights closed-row --method linear-system --view plain \
  --rounds 100 --json --summary-only --quiet
case_run train_kk_mnist "$repeat_long" "netdp train: DP-D-SGD logistic regression, 10,000 MNIST digits over ER(100, 0.2), 500 rounds, σ = 1" \
  "Training only: σ fixed and privacy.calibrate_on=local, so no pairwise accountant runs. Needs the MNIST files the example names." \
  train --quiet --out "$out/train" --config examples/kk-fig3-mnist-dp-gossipavg.toml --set privacy.target_epsilon= \
  --set privacy.calibrate_on=local --set algorithm.sigma=1 --set algorithm.rounds=500 --set train.eval_every=500
