#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Ranks × threads for `netdp account` (Muffliato's exact joint view), and what predicts an all-pairs
# run on a cluster (docs/reference/performance.md, "Many processes: mpirun").
#   1. Strong scaling on whole accounts, ego 414 (148 nodes, T = 20) and ba:n=1500,m=3 (T = 15):
#      1 rank × 1 thread, 1 × 2, 2 × 1 and 4 × 1 (oversubscribed on a 2-core machine), each checked
#      to write the same JSON as the single process.
#   2. SNAP facebook_combined (4,039 nodes, T = 20): a rank's fixed part (one sampled observer),
#      the costliest observer (the hub), the floor under any split, and the four layouts on a
#      sample of FB_SAMPLE observers (default 64), the same JSON from each.
#   3. ba:n=100000,m=5 (a 10⁵-node sparse graph), T = 10, a sample of BIG_SAMPLE observers (default
#      16) on 2 ranks, and one: the sampled run of a graph whose n² pairs cannot be listed.
# CASES (default "ego ba facebook big") picks among them; BUSY=1 keeps one core busy the whole
# time (a bounded background loop, as bench/under_load.sh), as on a user's loaded machine.
# Prints a Markdown table and writes bench/results/mpi_scaling_<cases>[_busy].json (machine, load
# before and after, command, wall, peak memory of the largest rank, each rank's build time).
# Usage (after `make build`):
#   bench/mpi_scaling.sh [BUILD_DIR]           BIG_SAMPLE=16 REPEAT=1 CASES="ego ba facebook big" BUSY=
set -euo pipefail
build=${1:-build/release}
netdp=$(realpath "$build/bin/netdp")
repeat=${REPEAT:-1}
big_sample=${BIG_SAMPLE:-16}
here=$(cd "$(dirname "$0")" && pwd)
facebook=$(realpath -m "$here/../../shared/datasets/graphs/facebook/facebook_combined.txt")
results=$here/results
mkdir -p "$results"
cases=${CASES:-ego ba facebook big}
busy=${BUSY:-}
json=$results/mpi_scaling_${cases// /_}${busy:+_busy}.json
out=$(mktemp -d)
busy_pid=
trap '[ -n "$busy_pid" ] && kill "$busy_pid" 2> /dev/null; rm -rf "$out"' EXIT
if [ -n "$busy" ]; then
  timeout 3600 sh -c 'while :; do :; done' &
  busy_pid=$!
fi
runs() { [[ " $cases " == *" $1 "* ]]; }  # runs CASE: whether CASES has it
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Containers often forbid the cross-process memory copy Open MPI tries first: plain shared memory.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
records=()
echo "| case | observers | ranks × threads | wall (s) | peak MB (largest rank) | ranks' build times (s) |"
echo "|---|---:|---|---:|---:|---|"
run_case() {  # run_case LABEL OBSERVERS RANKS THREADS ARGS...
  local label=$1 observers=$2 ranks=$3 threads=$4
  shift 4
  local dir=$out/$label-$observers-$ranks-$threads
  mkdir -p "$dir"
  # OBSERVERS: a number (a sample of that many), "all", or "hub" (node 107 alone).
  local which=(--observers-sample "$observers" --seed 1)
  [ "$observers" = all ] && which=()
  [ "$observers" = hub ] && which=(--observer 107)
  # In the case's own folder, so that every layout's JSON (which records the command) is the same.
  pushd "$dir" > /dev/null
  if [ "$ranks" = 1 ]; then
    timed_runs "$dir" "$repeat" env OMP_NUM_THREADS="$threads" "$netdp" account "$@" "${which[@]}" \
      --json --summary-only --out out.json
  else
    timed_runs "$dir" "$repeat" mpirun -np "$ranks" -x OMP_NUM_THREADS="$threads" "$netdp" account "$@" \
      "${which[@]}" --json --summary-only --out out.json
  fi
  popd > /dev/null
  local builds
  builds=$( (grep -o 'accounted [0-9]* observers in [0-9.e+-]* s' "$dir/stderr" || true) | awk '{print $5}' | paste -sd' ' -)
  echo "| $label | $observers | $ranks × $threads | $MEDIAN_WALL | $PEAK_MB | ${builds:--} |"
  records+=("{\"case\": \"$label\", \"observers\": \"$observers\", \"ranks\": $ranks, \"threads\": $threads, \"wall_s\": $MEDIAN_WALL, \"peak_mb\": $PEAK_MB, \"rank_build_s\": [${builds// /, }], \"command\": \"netdp account $* ${which[*]} --json --summary-only\"}")
}
# Strong scaling on whole accounts: every observer, the same JSON from every layout.
scale() {  # scale LABEL OBSERVERS ARGS...: OBSERVERS "all" or the size of a sample
  local label=$1 observers=$2
  shift 2
  for setting in "1 1" "1 2" "2 1" "4 1"; do
    read -r ranks threads <<< "$setting"
    run_case "$label" "$observers" "$ranks" "$threads" "$@"
  done
  for setting in "1-2" "2-1" "4-1"; do
    cmp -s "$out/$label-$observers-1-1/out.json" "$out/$label-$observers-$setting/out.json" ||
      { echo "$label: the $setting run's JSON differs from the single process's" >&2; exit 1; }
  done
}
ego=$(realpath -m "$here/../../shared/datasets/graphs/facebook/414.edges")
if ! runs ego; then
  :
elif [ -f "$ego" ]; then
  scale ego_414 all --graph "edgelist:$ego" --lcc --rounds 20
else
  echo "(skipped ego 414: $ego is missing)" >&2
fi
if runs ba; then scale ba_1500 all --graph ba:n=1500,m=3,seed=2 --rounds 15; fi
# facebook_combined: the fixed part of a rank (one observer), the costliest observer (the hub, node
# 107, 1,045 neighbours: the floor under any split), and strong scaling on a sample of FB_SAMPLE
# observers (default 64; the whole account is beyond an hour per layout on 2 cores), whose
# (wall − fixed) / FB_SAMPLE is the mean cost of an observer.
if ! runs facebook; then
  :
elif [ -f "$facebook" ]; then
  fb=(--graph "edgelist:$facebook" --rounds 20)
  run_case facebook_combined 1 1 1 "${fb[@]}"
  run_case facebook_combined hub 1 1 "${fb[@]}"
  scale facebook_combined "${FB_SAMPLE:-64}" "${fb[@]}"
else
  echo "(skipped facebook_combined: $facebook is missing)" >&2
fi
# A 10⁵-node graph, sampled, on 2 ranks.
if runs big; then
  ba=(--graph ba:n=100000,m=5,seed=1 --rounds 10)
  run_case ba_100000 1 1 1 "${ba[@]}"
  run_case ba_100000 "$big_sample" 2 1 "${ba[@]}"
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "{\"machine\": \"$(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo)\","
  echo " \"load_before\": \"$load_before\", \"load_after\": \"$load_after\", \"date\": \"$(date -u +%F)\","
  echo " \"one_core_busy\": $([ -n "$busy" ] && echo true || echo false),"
  echo " \"runs\": ["
  for i in "${!records[@]}"; do echo "  ${records[$i]}$([ "$i" -lt $((${#records[@]} - 1)) ] && echo ,)"; done
  echo "]}"
} > "$json"
echo
echo "load before: $load_before; after: $load_after; written to $json"
