#!/usr/bin/env bash
# Ranks × threads for `netdp account` on a sample of observers, and the per-observer cost that
# predicts an all-pairs run on a cluster (docs/performance.md, "Many processes: mpirun").
#   1. SNAP facebook_combined (4,039 nodes), Muffliato's exact joint view, T = 20, a sample of
#      K observers (default 40): 1 rank × 2 threads, 1 × 1, 2 × 1, and 4 × 1 (oversubscribed on a
#      2-core machine), each checked to write the same JSON; and K = 1 for the fixed cost.
#   2. ba:n=100000,m=5 (a 10⁵-node sparse graph), T = 10, K observers (default 16) on 2 ranks, and
#      K = 1: the sampled run of a graph whose n² pairs cannot be listed.
# Prints a Markdown table and writes bench/results/mpi_scaling.json (machine, load before and after,
# command, wall, peak memory of the largest rank, each rank's build time). Usage (after `make build`):
#   bench/mpi_scaling.sh [BUILD_DIR]           SAMPLE=40 BIG_SAMPLE=16 REPEAT=1
set -euo pipefail
build=${1:-build/release}
netdp=$(realpath "$build/bin/netdp")
repeat=${REPEAT:-1}
sample=${SAMPLE:-40}
big_sample=${BIG_SAMPLE:-16}
here=$(cd "$(dirname "$0")" && pwd)
facebook=$(realpath -m "$here/../../shared/datasets/graphs/facebook/facebook_combined.txt")
results=$here/results
mkdir -p "$results"
json=$results/mpi_scaling.json
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
records=()
echo "| case | observers | ranks × threads | wall (s) | peak MB (largest rank) | ranks' build times (s) |"
echo "|---|---:|---|---:|---:|---|"
run_case() {  # run_case LABEL OBSERVERS RANKS THREADS ARGS...
  local label=$1 observers=$2 ranks=$3 threads=$4
  shift 4
  local dir=$out/$label-$observers-$ranks-$threads
  mkdir -p "$dir"
  if [ "$ranks" = 1 ]; then
    timed_runs "$dir" "$repeat" env OMP_NUM_THREADS="$threads" "$netdp" account "$@" --observers-sample "$observers" \
      --seed 1 --json --summary-only --out "$dir/out.json"
  else
    timed_runs "$dir" "$repeat" mpirun -np "$ranks" -x OMP_NUM_THREADS="$threads" "$netdp" account "$@" \
      --observers-sample "$observers" --seed 1 --json --summary-only --out "$dir/out.json"
  fi
  local builds
  builds=$( (grep -o 'accounted [0-9]* observers in [0-9.e+-]* s' "$dir/stderr" || true) | awk '{print $5}' | paste -sd' ' -)
  echo "| $label | $observers | $ranks × $threads | $MEDIAN_WALL | $PEAK_MB | ${builds:--} |"
  records+=("{\"case\": \"$label\", \"observers\": $observers, \"ranks\": $ranks, \"threads\": $threads, \"wall_s\": $MEDIAN_WALL, \"peak_mb\": $PEAK_MB, \"rank_build_s\": [${builds// /, }], \"command\": \"netdp account $* --observers-sample $observers --seed 1 --json --summary-only\"}")
}
if [ -f "$facebook" ]; then
  fb=(--graph "edgelist:$facebook" --rounds 20)
  run_case facebook_combined 1 1 1 "${fb[@]}"
  for setting in "1 2" "1 1" "2 1" "4 1"; do
    read -r ranks threads <<< "$setting"
    run_case facebook_combined "$sample" "$ranks" "$threads" "${fb[@]}"
  done
  for setting in "1-1" "2-1" "4-1"; do
    cmp -s "$out/facebook_combined-$sample-1-2/out.json" "$out/facebook_combined-$sample-${setting}/out.json" ||
      { echo "the $setting run's JSON differs from the single process's" >&2; exit 1; }
  done
else
  echo "(skipped facebook_combined: $facebook is missing)" >&2
fi
ba=(--graph ba:n=100000,m=5,seed=1 --rounds 10)
run_case ba_100000 1 1 1 "${ba[@]}"
run_case ba_100000 "$big_sample" 2 1 "${ba[@]}"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "{\"machine\": \"$(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo)\","
  echo " \"load_before\": \"$load_before\", \"load_after\": \"$load_after\", \"date\": \"$(date -u +%F)\","
  echo " \"runs\": ["
  for i in "${!records[@]}"; do echo "  ${records[$i]}$([ "$i" -lt $((${#records[@]} - 1)) ] && echo ,)"; done
  echo "]}"
} > "$json"
echo
echo "load before: $load_before; after: $load_after; written to $json"
