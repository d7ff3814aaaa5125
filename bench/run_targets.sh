#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Runs the Google Benchmark cases behind the speed targets, one case per process so that
# /usr/bin/time reports each case's wall time, CPU time (user + system) and peak memory, and writes
# bench/results/target_<case>.json for each (bench/render_performance.py puts them in
# docs/reference/performance.md; the benchmark's own per-iteration figures are in the file's notes).
# Usage (after `make bench`):
#   bench/run_targets.sh [BUILD_DIR]        # default build/release
#   ONLY='muffliato' bench/run_targets.sh   # only the cases whose file name matches (grep -E)
# Needs ../shared/datasets for the Facebook cases. Takes about 5 minutes on 2 cores.
set -euo pipefail
build=${1:-build/release}
bench=$build/bench
only=${ONLY:-}
here=$(dirname "$0")
mkdir -p "$here/results"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
SHOWN_NETDP=$build/bin/netdp
run() {  # run ID TITLE PROGRAM FILTER [ENV=VALUE...]
  local id=$1 title=$2 program=$3 filter=$4
  shift 4
  [ -z "$only" ] || grep -qE "$only" <<< "$id" || return 0
  [ -x "$bench/$program" ] || { echo "$id: $bench/$program is missing: make bench first" >&2; return; }
  if ! timed_runs "$out" 1 env "$@" "$bench/$program" --benchmark_filter="$filter" --benchmark_format=console; then
    echo "$id: FAILED"
    cat "$out/stdout" "$out/stderr"
    return
  fi
  local reported shown
  reported=$(grep -E "^BM_" "$out/stdout" | awk '{printf "%s%s %s %s", sep, $1, $2, $3; sep="; "}' || true)
  shown="${*:+$* }build/release/bench/$program --benchmark_filter='$filter'"
  write_result "$here/results/target_$id.json" "target_$id" "$title" "$shown" bench/run_targets.sh false \
    "Google Benchmark, per iteration (name, real time, unit): $reported. Wall, CPU and peak: the whole process."
  printf '%-34s %8s s wall %8s s CPU %6s MB peak  (benchmark: %s)\n' "target_$id" "$MEDIAN_WALL" "$MEDIAN_CPU" \
    "$PEAK_MB" "$reported"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(date -u +%F)"
run muffliato_cube11 "Muffliato Theorem 1 kernel, all pairs, hypercube d=11, T=19" \
  netdp_muffliato_bench 'BM_MuffliatoAllPairsHypercube/11/19/'
run muffliato_cube13 "Muffliato Theorem 1 kernel, all pairs, hypercube d=13 (n = 8192), T=23" \
  netdp_muffliato_bench 'BM_MuffliatoAllPairsHypercube/13/23/'
run muffliato_facebook "Muffliato Theorem 1 kernel, all pairs, facebook_combined, T=20" \
  netdp_muffliato_bench 'BM_MuffliatoAllPairsFacebook'
run muffliato_cube10_fast "Muffliato Theorem 1, all pairs, hypercube d=10, T=17: the fast path" \
  netdp_muffliato_bench 'BM_MuffliatoAllPairsHypercube/10/17/'
run muffliato_cube10_literal "Muffliato Theorem 1, all pairs, hypercube d=10, T=17: the literal dense path" \
  netdp_muffliato_bench 'BM_MuffliatoDenseHypercube/10/17/'
run walk_cube11 "Random walk kernel, all pairs, hypercube n=2048, T=1150" \
  netdp_random_walk_bench 'BM_RandomWalkAllPairsFast/11/'
run walk_cube13 "Random walk kernel, all pairs, hypercube n=8192" \
  netdp_random_walk_bench 'BM_RandomWalkAllPairsFastLarge/13/' NETDP_BENCH_LARGE=1
run walk_literal_vs_fast "Random walk, all pairs, literal against fast, hypercube n = 128, 256, 512" \
  netdp_random_walk_bench 'BM_RandomWalkAllPairs(Literal|Fast)/(7|8|9)/'
run securesum_facebook "Secure summation (KK Theorem 8) engine, all pairs of facebook_combined, T=50" \
  netdp_linear_system_bench 'BM_FacebookSecureSum/4039/'
run securesum_literal_vs_structured "Secure summation, structured against literal" \
  netdp_linear_system_bench 'BM_StructuredVsLiteral'
run mf_pndp_ego414 "MF PNDP for DP-D-SGD, every attacker × target, ego 414, T=50" \
  netdp_mf_accounting_bench 'BM_MfPndpDpDsgdEgo414AllPairs'
run mf_pndp_literal_vs_structured "MF PNDP, one attacker against all targets, structured against literal" \
  netdp_mf_accounting_bench 'BM_MfPndpOneAttacker'
run mafalda_gram_spectral "MAFALDA local Gram, ego 414, T=320, spectral path" \
  netdp_mf_gram_bench 'BM_LocalGramEgo414/320/0/'
run mafalda_gram_literal "MAFALDA local Gram, ego 414, T=64, literal dense path" \
  netdp_mf_gram_bench 'BM_LocalGramEgo414/64/2/'
run vector_max_per_call "Vector maximum (certified SDP), one call per projector block, m = 8 to 100" \
  netdp_vector_max_bench 'PerCall' OPENBLAS_NUM_THREADS=1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
