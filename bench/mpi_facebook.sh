#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Strong scaling of the whole all-pairs account of SNAP facebook_combined (4,039 nodes, 8.2 · 10⁶
# ordered pairs, Muffliato's exact joint view, T = 20) under `mpirun` (docs/reference/performance.md, "Many
# processes: mpirun"). Each layout in LAYOUTS ("RANKSxTHREADS", default "2x1 4x1") runs once; every
# run's JSON must equal the first one's byte for byte (and, when REFERENCE names the JSON of an
# earlier run, that one's; KEEP=PREFIX keeps each run's JSON as PREFIX.<layout>.json). A run takes about 25 minutes on 2 cores. Writes one file per layout,
# bench/results/mpi_facebook_<layout>.json (machine, load before and after, command, wall, peak
# memory of the largest rank, each rank's build time). Usage (after `make build`):
#   bench/mpi_facebook.sh [BUILD_DIR]          LAYOUTS="2x1 4x1" REFERENCE=
set -euo pipefail
build=${1:-build/release}
netdp=$(realpath "$build/bin/netdp")
layouts=${LAYOUTS:-2x1 4x1}
here=$(cd "$(dirname "$0")" && pwd)
facebook=$(realpath -m "$here/../../shared/datasets/graphs/facebook/facebook_combined.txt")
[ -f "$facebook" ] || { echo "bench/mpi_facebook.sh needs $facebook (../shared/datasets)" >&2; exit 2; }
results=$here/results
mkdir -p "$results"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # see bench/mpi_scaling.sh
args=(--graph "edgelist:$facebook" --rounds 20 --json --summary-only --out out.json)
first=${REFERENCE:-}
echo "| ranks × threads | wall (s) | peak MB (largest rank) | ranks' build times (s) |"
echo "|---|---:|---:|---|"
for layout in $layouts; do
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  ranks=${layout%x*} threads=${layout#*x}
  dir=$out/$layout
  mkdir -p "$dir"
  pushd "$dir" > /dev/null
  if [ "$ranks" = 1 ]; then
    timed_runs "$dir" 1 env OMP_NUM_THREADS="$threads" "$netdp" account "${args[@]}"
  else
    timed_runs "$dir" 1 mpirun -np "$ranks" -x OMP_NUM_THREADS="$threads" "$netdp" account "${args[@]}"
  fi
  popd > /dev/null
  [ -z "$first" ] && first=$dir/out.json
  cmp -s "$first" "$dir/out.json" || { echo "the $layout run's JSON differs from the first run's" >&2; exit 1; }
  builds=$( (grep -o 'accounted [0-9]* observers in [0-9.e+-]* s' "$dir/stderr" || true) | awk '{print $5}' | paste -sd' ' -)
  echo "| $ranks × $threads | $MEDIAN_WALL | $PEAK_MB | ${builds:--} |"
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  {
    echo "{\"machine\": \"$(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo)\","
    echo " \"load_before\": \"$load_before\", \"load_after\": \"$load_after\", \"date\": \"$(date -u +%F)\","
    echo " \"ranks\": $ranks, \"threads\": $threads, \"wall_s\": $MEDIAN_WALL, \"peak_mb\": $PEAK_MB,"
    echo " \"rank_build_s\": [${builds// /, }],"
    echo " \"command\": \"netdp account --graph edgelist:facebook_combined.txt --rounds 20 --json --summary-only\"}"
  } > "$results/mpi_facebook_$layout.json"
  if [ -n "${KEEP:-}" ]; then cp "$dir/out.json" "$KEEP.$layout.json"; fi
done
echo
echo "written to $results/mpi_facebook_<layout>.json"
