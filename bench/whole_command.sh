#!/usr/bin/env bash
# The commands a user types, timed whole (process start to exit) with their peak memory: the
# median of REPEAT runs (default 3) of each, one process per run, by /usr/bin/time, beside the
# numpy/scipy scripts of bench/baselines/ (Debian's python3-numpy, -scipy). Prints a table for
# docs/performance.md. Usage (after `make build`):
#   bench/whole_command.sh [BUILD_DIR]        # default build/release
# The SNAP cases need ../shared/datasets; without it they are reported as not run.
set -euo pipefail
build=${1:-build/release}
netdp=$build/bin/netdp
repeat=${REPEAT:-3}
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "REPEAT must be a whole number >= 1, got '$repeat'" >&2; exit 2; }
[ -x "$netdp" ] || { echo "$netdp is missing: build it first (make build)" >&2; exit 2; }
data=../shared/datasets/graphs/facebook
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$(dirname "$0")/timing.sh"

run() {  # run LABEL ARGS...: netdp ARGS
  local label=$1
  shift
  measure "$label" "$netdp" "$@"
}

measure() {  # measure LABEL PROGRAM ARGS...
  local label=$1
  shift
  if ! timed_runs "$out" "$repeat" "$@"; then
    printf '| %s | FAILED: %s |\n' "$label" "$(tail -1 "$out/stderr")"
    return
  fi
  printf '| %s | %s s | %s MB |\n' "$label" "$MEDIAN_WALL" "$PEAK_MB"
}

needs_data() {  # needs_data LABEL: false (and a row saying so) when the SNAP files are absent
  [ -f "$data/facebook_combined.txt" ] && return 0
  printf '| %s | not run: %s is missing |\n' "$1" "$data"
  return 1
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(date -u '+%F %H:%M UTC'); median of $repeat"
echo
echo '| command | wall | peak memory |'
echo '|---|---|---|'
cube=(account --graph hypercube:d=11 --method muffliato --rounds 19 --sigma 1 --quiet)
run "hypercube d=11 Muffliato, --bound paper, --json --summary-only" "${cube[@]}" --bound paper --json --summary-only
measure "the same in numpy/scipy (bench/baselines/muffliato_theorem1.py)" /usr/bin/python3 \
  "$(dirname "$0")/baselines/muffliato_theorem1.py" 11 19 1
run "the same, --csv --out F.csv" "${cube[@]}" --bound paper --csv --out "$out/pairs.csv"
run "the same, --out F.npy" "${cube[@]}" --bound paper --out "$out/pairs.npy"
run "hypercube d=11 Muffliato, exact joint view (default), --summary-only" "${cube[@]}" --json --summary-only
# The same hypercube as an edge list carries no symmetry hints: every observer's view and every
# target's return-time law is computed (docs/accounting-muffliato.md, "Observers alike by symmetry").
/usr/bin/python3 -c 'print("\n".join(f"{u} {u ^ (1 << k)}" for u in range(2048) for k in range(11) if u < u ^ (1 << k)))' \
  > "$out/hypercube11.edges"
run "the same hypercube read as an edge list (no symmetry hints)" account --graph "edgelist:$out/hypercube11.edges" \
  --method muffliato --rounds 19 --sigma 1 --quiet --json --summary-only
walk=(account --graph hypercube:d=11 --method random-walk --rounds 1150 --sigma 20 --alpha 4 --quiet)
run "hypercube d=11 random walk, T=1150, σ=20, α=4, --summary-only" "${walk[@]}" --json --summary-only
run "the same, the paper's count T/n (--contributions expected)" "${walk[@]}" --contributions expected \
  --json --summary-only
measure "the paper's count in numpy/scipy (bench/baselines/random_walk_theorem3.py)" /usr/bin/python3 \
  "$(dirname "$0")/baselines/random_walk_theorem3.py" 11 1150 20 4
run "the same hypercube read as an edge list (no symmetry hints)" account --graph "edgelist:$out/hypercube11.edges" \
  --method random-walk --rounds 1150 --sigma 20 --alpha 4 --quiet --json --summary-only
run "hypercube d=11 random walk, --out F.npy" account --graph hypercube:d=11 --method random-walk \
  --rounds 1150 --sigma 20 --alpha 4 --out "$out/walk.npy" --quiet
label="facebook_combined Muffliato, --bound paper, T=20, --summary-only"
needs_data "$label" && run "$label" account --graph "edgelist:$data/facebook_combined.txt" \
  --method muffliato --bound paper --rounds 20 --sigma 1 --json --summary-only --quiet
ego=(account --graph "edgelist:$data/1912.edges" --lcc --method muffliato --bound paper --rounds 20 --json
  --summary-only --quiet)
label="ego 1912 (LCC, 744 nodes) Muffliato --bound paper, T=20, one σ"
needs_data "$label" && run "$label" "${ego[@]}" --sigma 1
label="the same, calibrated: --target-epsilon 1 --calibrate-on mean"
needs_data "$label" && run "$label" "${ego[@]}" --target-epsilon 1 --calibrate-on mean
run "KK Fig. 3 accountant: ER(100, 0.2) closed-row, plain view, T=100, vector releases, --summary-only" \
  account --graph er:n=100,p=0.2,seed=1,connected=1 --weights closed-row --method linear-system --view plain \
  --rounds 100 --json --summary-only --quiet
label="facebook_combined secure-sum (KK Theorem 8), T=50, scalar releases, --summary-only"
needs_data "$label" && run "$label" account --graph "edgelist:$data/facebook_combined.txt" \
  --method linear-system --rounds 50 --release-dimension 1 --json --summary-only --quiet
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
