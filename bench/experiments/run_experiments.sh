#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Reproduces every number recorded in docs/reference/experiments.md with `netdp train` and the configs in
# examples/. Run from the repository root (the configs' data paths are relative to it):
#
#   bench/experiments/run_experiments.sh [smoke|muffliato|rw-table1|kk-fig3|mf-fig3|all ...]
#
# Environment: NETDP (default build/release/bin/netdp, built by `make run`), OUT (default
# out/experiments, git-ignored), NICE (default 10), RESUME (1: keep a run whose summary.json exists).
# Runs are sequential (one training at a time).
# Each run writes OUT/<name>/{summary.json,metrics.csv,config.toml}; one line per run is appended
# to OUT/results.tsv: name, algorithm, accountant, sigma, epsilon, delta, test accuracy, wall seconds,
# final test loss.
set -euo pipefail

NETDP=${NETDP:-build/release/bin/netdp}
OUT=${OUT:-out/experiments}
NICE=${NICE:-10}

[[ -x "$NETDP" ]] || { echo "run_experiments: no netdp binary at '$NETDP' (build it: make run, or set NETDP=)" >&2; exit 2; }
[[ -f examples/README.md ]] || { echo "run_experiments: run from the repository root" >&2; exit 2; }
mkdir -p "$OUT"

# summary NAME: the TSV line of OUT/NAME/summary.json (wall time from OUT/NAME/wall_seconds).
summary() {
  /usr/bin/python3 - "$OUT/$1" "$1" <<'EOF'
import json, sys, pathlib
d = pathlib.Path(sys.argv[1]); s = json.loads((d / "summary.json").read_text())
wall = (d / "wall_seconds").read_text().strip()
acc = s.get("final_test_accuracy")
print("\t".join([sys.argv[2], s["algorithm"], s.get("accountant") or "none", f"{s['sigma']:.6g}",
                 "inf" if s["epsilon"] is None else f"{s['epsilon']:.4g}", f"{s['delta']:g}", "null" if acc is None else f"{acc:.4f}", wall,
                 f"{s['final_test_loss']:.6g}"]))
EOF
}

# run NAME CONFIG [--set k=v ...]: one training, timed, summarized.
run() {
  local name=$1 config=$2
  shift 2
  local start end
  if [[ ${RESUME:-0} == 1 && -f "$OUT/$name/summary.json" && -f "$OUT/$name/wall_seconds" ]]; then
    summary "$name"
    return 0
  fi
  start=$(date +%s.%N)
  nice -n "$NICE" "$NETDP" train --config "$config" --quiet --out "$OUT/$name" "$@" >"$OUT/$name.log" 2>&1 ||
    { echo "run_experiments: $name failed:" >&2; tail -5 "$OUT/$name.log" >&2; return 1; }
  end=$(date +%s.%N)
  /usr/bin/python3 -c "print(f'{$end - $start:.1f}')" >"$OUT/$name/wall_seconds"
  summary "$name" | tee -a "$OUT/results.tsv"
}

# json_field NAME KEY: one value of OUT/NAME/summary.json.
json_field() {
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$OUT/$1/summary.json" "$2"
}

# Every example config, 2 rounds: checks that each file parses and runs. A (k, b)-cyclic config
# (algorithm.separation = b) needs T >= b, so it runs one cycle, T = b.
smoke() {
  local f b rounds
  for f in examples/*.toml; do
    b=smoke-$(basename "$f" .toml)
    rounds=$(sed -n 's/^separation *= *\([0-9]*\).*/\1/p' "$f")
    if run "$b" "$f" --set algorithm.rounds="${rounds:-2}" --set train.eval_every=1 >/dev/null; then
      echo "smoke ok   $f (T = ${rounds:-2}, $(cat "$OUT/$b/wall_seconds") s)"
    else
      echo "smoke FAIL $f: $(grep -m1 error "$OUT/$b.log" || tail -1 "$OUT/$b.log")"
    fi
  done
}

# Muffliato Fig. 1(c): Muffliato-GD on a fresh ER graph per step (mean pairwise ε = 1), and the
# baselines at the same σ: the trusted aggregator (dp-fedavg; its σ is scaled by √n so that the
# noise on the average equals that of the exact average of the n nodes' noisy gradients) and the
# local-DP ε of the same run; plus Muffliato-GD calibrated on local DP at the same ε.
muffliato() {
  local cfg=examples/muffliato-fig1c-houses.toml sigma n=2000
  run muffliato-1c "$cfg"
  sigma=$(json_field muffliato-1c sigma)
  run muffliato-1c-ldp-same-sigma "$cfg" --set privacy.calibrate_on=local --set privacy.target_epsilon= \
    --set algorithm.sigma="$sigma"
  run muffliato-1c-central "$cfg" --set algorithm.name=dp-fedavg --set privacy.target_epsilon= \
    --set algorithm.sigma="$(/usr/bin/python3 -c "import math; print(repr($sigma * math.sqrt($n)))")"
  run muffliato-1c-ldp-calibrated "$cfg" --set privacy.calibrate_on=local
}

# Random-walk paper Table 1: 2 algorithms × 4 graphs × 3 mean privacy losses (one seed; the paper
# averages 8; RW_SEEDS="1 2 3" repeats each cell). Both are calibrated on local DP by netdp train:
# for the walk (10 contributions per node, capped) that is what netdp's Theorem 3 bound gives at
# these ε̄ (every pair hits its local-DP cap; docs/reference/experiments.md).
rw_table1() {
  local graph eps seed
  for graph in complete:n=2048 exponential:n=2048 geometric:n=2048,radius=0.05 grid:rows=32,cols=64; do
    for eps in 0.5 1 2; do
      for seed in ${RW_SEEDS:-1}; do
        run "rw-random-walk-${graph%%:*}-$eps-s$seed" examples/rw-table1-random-walk.toml \
          --set network.graph="$graph" --set privacy.target_epsilon="$eps" --set train.seed="$seed"
        run "rw-gossip-${graph%%:*}-$eps-s$seed" examples/rw-table1-gossip.toml \
          --set network.graph="$graph" --set privacy.target_epsilon="$eps" --set train.seed="$seed"
      done
    done
  done
  # The calibration claim checked where netdp train can run the walk's pairwise accountant (n <= 120):
  # mean-pairwise and local calibration give the same σ.
  run rw-check-complete100-mean examples/rw-table1-random-walk.toml --set network.graph=complete:n=100 \
    --set algorithm.rounds=1000 --set privacy.calibrate_on=mean
  run rw-check-complete100-local examples/rw-table1-random-walk.toml --set network.graph=complete:n=100 \
    --set algorithm.rounds=1000
  # Non-private references on the complete graph (the ceiling of this model and preprocessing).
  run rw-random-walk-complete-nonprivate examples/rw-table1-random-walk.toml --set privacy.target_epsilon= \
    --set algorithm.sigma=0
  run rw-gossip-complete-nonprivate-200 examples/rw-table1-gossip.toml --set algorithm.name=d-sgd \
    --set privacy.target_epsilon= --set algorithm.rounds=200
}

# MF paper Fig. 3: housing MLP regression under LDP, MF-D-SGD with three encoders (C = I: DP-D-SGD;
# AntiPGD; MAFALDA) on one accountant (mf-ldp) and one (k, b) = (20, 19) cyclic batch scheme, on the
# Facebook ego graph 414 and the Florentine families, at ε = 1, 3 and 10 (δ = 1e-6), seeds MF_SEEDS
# (default 1 2 3).
mf_fig3() {
  local graph eps algo seed extra
  for graph in ego414 florentine; do
    extra=()
    [[ $graph == florentine ]] && extra=(--set network.graph=florentine --set algorithm.batch_size=58)
    for eps in 1 3 10; do
      for algo in dp-d-sgd antipgd mafalda; do
        for seed in ${MF_SEEDS:-1 2 3}; do
          run "mf3-$graph-$algo-eps$eps-s$seed" "examples/mf-fig3-housing-$algo.toml" "${extra[@]}" \
            --set privacy.target_epsilon="$eps" --set train.seed="$seed"
        done
      done
    done
    # Non-private reference: the same runs at σ = 0 (ε = inf).
    run "mf3-$graph-nonprivate" examples/mf-fig3-housing-dp-d-sgd.toml "${extra[@]}" \
      --set privacy.target_epsilon= --set algorithm.sigma=0
  done
}

# Koskela–Kulkarni Fig. 3: DP-GossipAvg vs DP-FedAvg on MNIST at mean ε = 2.
kk_fig3() {
  run kk-gossipavg examples/kk-fig3-mnist-dp-gossipavg.toml
  run kk-fedavg examples/kk-fig3-mnist-dp-fedavg.toml
}

[[ $# -gt 0 ]] || set -- all
for what in "$@"; do
  case $what in
    smoke) smoke ;;
    muffliato) muffliato ;;
    rw-table1) rw_table1 ;;
    kk-fig3) kk_fig3 ;;
    mf-fig3) mf_fig3 ;;
    all) smoke && muffliato && rw_table1 && kk_fig3 && mf_fig3 ;;
    *) echo "run_experiments: unknown experiment '$what' (smoke, muffliato, rw-table1, kk-fig3, mf-fig3, all)" >&2; exit 2 ;;
  esac
done
