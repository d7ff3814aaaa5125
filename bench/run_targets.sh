#!/usr/bin/env bash
# Runs the benchmarks behind the speed targets (docs/performance.md), one case per
# process so that /usr/bin/time reports each case's peak memory, and prints a
# table for docs/performance.md. Usage (after `make bench`):
#   bench/run_targets.sh [BUILD_DIR]        # default build/release
# Needs ../shared/datasets for the Facebook cases. Takes about 5 minutes on 2 cores.
set -euo pipefail
build=${1:-build/release}
bench=$build/bench
log=$(mktemp)
run() {  # run LABEL PROGRAM FILTER [ENV=VALUE]
  local label=$1 program=$2 filter=$3
  shift 3
  env "$@" /usr/bin/time -f "%e %M" -o "$log.time" "$bench/$program" --benchmark_filter="$filter" \
    --benchmark_format=console > "$log.out" 2>&1 || { echo "$label: FAILED"; cat "$log.out"; return; }
  read -r wall rss < "$log.time"
  local reported
  reported=$(grep -E "^BM_" "$log.out" | awk '{printf "%s%s %s %s", sep, $1, $2, $3; sep="; "}' || true)
  printf '%-58s %10s s wall  %8.0f MB peak  (benchmark: %s)\n' "$label" "$wall" "$((rss / 1024))" "$reported"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(date -u +%F)"
run "Muffliato all pairs, hypercube d=11, T=19"       netdp_muffliato_bench 'BM_MuffliatoAllPairsHypercube/11/19/'
run "Muffliato all pairs, hypercube d=13, T=23"       netdp_muffliato_bench 'BM_MuffliatoAllPairsHypercube/13/23/'
run "Muffliato all pairs, facebook_combined, T=20"    netdp_muffliato_bench 'BM_MuffliatoAllPairsFacebook'
run "Muffliato all pairs, hypercube d=10, T=17 (fast)"    netdp_muffliato_bench 'BM_MuffliatoAllPairsHypercube/10/17/'
run "Muffliato all pairs, hypercube d=10, T=17 (literal)" netdp_muffliato_bench 'BM_MuffliatoDenseHypercube/10/17/'
run "Random walk all pairs, hypercube n=2048, T=1150"  netdp_random_walk_bench 'BM_RandomWalkAllPairsFast/11/'
run "Random walk all pairs, hypercube n=8192"          netdp_random_walk_bench 'BM_RandomWalkAllPairsFastLarge/13/' NETDP_BENCH_LARGE=1
run "Random walk all pairs, literal vs fast (small n)" netdp_random_walk_bench 'BM_RandomWalkAllPairs(Literal|Fast)/(7|8|9)/'
run "Secure sum (KK Theorem 8) all pairs, facebook, T=50"  netdp_linear_system_bench 'BM_FacebookSecureSum/4039/'
run "Secure sum structured vs literal"                netdp_linear_system_bench 'BM_StructuredVsLiteral'
run "MF PNDP DP-D-SGD all pairs, ego 414, T=50"        netdp_mf_accounting_bench 'BM_MfPndpDpDsgdEgo414AllPairs'
run "MF PNDP one attacker, structured vs literal"     netdp_mf_accounting_bench 'BM_MfPndpOneAttacker'
run "MAFALDA local Gram, ego 414, T=320 (spectral)"   netdp_mf_gram_bench 'BM_LocalGramEgo414/320/0/'
run "MAFALDA local Gram, ego 414, T=64 (literal)"     netdp_mf_gram_bench 'BM_LocalGramEgo414/64/2/'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$log" "$log.time" "$log.out"
