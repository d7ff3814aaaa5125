#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# `mpirun -np P netdp account` and `netdp compare` against the single-process run, byte for byte:
# every accountant, calibration (closed form and search), CSV, JSON and .npy outputs, P = 2 and an
# uneven P = 3, and the queries a run does not split (one observer, colluders, a graph with
# symmetries). Then bad inputs: one clear error, a non-zero exit, no output file.
# Usage: mpirun_test.sh NETDP_BINARY
set -euo pipefail
# shellcheck source=tests/mpi/mpi_env.sh
source "$(dirname "$0")/mpi_env.sh"
# One thread per rank: the ranks share this machine's cores.
failures=0
checks=0

same() {  # same NAME PROCESSES OUTPUT-SUFFIX ARGS...: the P-rank output equals the single run's
  # (of `netdp $COMMAND`, `account` unless set)
  local name=$1 processes=$2 suffix=$3
  shift 3
  # The same file name in two folders: the run record in the output holds the command line.
  mkdir -p "single/$name" "mpi-$processes/$name"
  # `account` writes --out; other commands print their result on standard output.
  local command=${COMMAND:-account} to=(--out "out.$suffix") file=out.$suffix
  [ "$command" = account ] || { to=(); file=stdout.$suffix; }
  (cd "single/$name" && "$netdp" "$command" "$@" --quiet "${to[@]}" > "stdout.$suffix")
  (cd "mpi-$processes/$name" &&
    OMP_NUM_THREADS=1 mpirun -np "$processes" -x OMP_NUM_THREADS "$netdp" "$command" "$@" --quiet "${to[@]}" \
      > "stdout.$suffix")
  checks=$((checks + 1))
  if cmp -s "single/$name/$file" "mpi-$processes/$name/$file"; then
    echo "ok   $name (-np $processes)"
  else
    echo "FAIL $name (-np $processes): the outputs differ"
    diff "single/$name/$file" "mpi-$processes/$name/$file" | head -5 || true
    failures=$((failures + 1))
  fi
}

karate=(--graph karate --rounds 12)
walk=(--graph karate --method random-walk --rounds 300 --sigma 5)
for p in 2 3; do
  same "muffliato-json" $p json "${karate[@]}" --json
  same "muffliato-paper-csv" $p csv "${karate[@]}" --bound paper --csv
  same "muffliato-gd" $p json --graph karate --rounds 3 --gradient-steps 3 --json
  same "random-walk-json" $p json "${walk[@]}" --json
  same "linear-system-csv" $p csv --graph karate --method linear-system --rounds 6 --csv
  same "mf-json" $p json --graph karate --method mf --rounds 6 --json
  same "mf-ldp-csv" $p csv --graph karate --method mf --trust ldp --rounds 6 --csv
  same "calibrate-mean-muffliato" $p json "${karate[@]}" --target-epsilon 2 --json --summary-only
  same "calibrate-max-linear-system" $p json --graph karate --method linear-system --rounds 6 \
    --target-epsilon 3 --calibrate-on max --json --summary-only
  same "calibrate-mean-random-walk" $p json "${walk[@]}" --target-epsilon 4 --json --summary-only
  same "muffliato-npy" $p npy "${karate[@]}" --field mu
done
# A sample of observers, split across the ranks.
same "sample" 3 json "${karate[@]}" --observers-sample 11 --seed 4 --json
same "sample-random-walk" 2 csv "${walk[@]}" --observers-sample 9 --seed 2 --csv
# What a large account keeps instead of its pairs: the top pairs, a histogram, each node's maxima.
same "top-histogram" 2 json "${walk[@]}" --top 5 --histogram 7 --json --summary-only
same "maxima" 3 json "${karate[@]}" --maxima m --json --summary-only
for vector in m.observer_max.npy m.target_max.npy m.labels.txt; do
  checks=$((checks + 1))
  if cmp -s "single/maxima/$vector" "mpi-3/maxima/$vector"; then echo "ok   maxima $vector"; else
    echo "FAIL maxima: $vector differs or is missing"; failures=$((failures + 1)); fi
done
# Not split: one observer, a coalition, a ring (whose symmetries the exact view uses).
same "one-observer" 2 json "${karate[@]}" --observer 3 --json
same "colluders" 2 json "${karate[@]}" --colluders 1,2 --json
same "ring" 2 json --graph ring:n=12 --rounds 8 --json

# The MF paper's Figure 2: each variant, with and without the secure-sum columns.
for p in 2 3; do
  COMMAND=compare same "compare-json" $p json --graph karate --rounds 4 --json
  COMMAND=compare same "compare-per-step-table" $p txt --graph karate --rounds 3 --variant per-step
  COMMAND=compare same "compare-k2" $p json --graph lesmis --rounds 2 --gossip-steps 2 --json
done

refused() {  # refused NAME ERROR-START COMMAND ARGS...: rank 0's one error, a non-zero exit, no output
  local name=$1 error=$2
  shift 2
  checks=$((checks + 1))
  rm -f bad.json
  if mpirun -np 2 "$netdp" "$@" --json > out.txt 2> err.txt; then
    echo "FAIL $name: mpirun exited 0"; failures=$((failures + 1))
  elif [ -e bad.json ] || [ -s out.txt ] || [ "$(grep -c "^netdp: error: $error" err.txt)" != 1 ]; then
    echo "FAIL $name: an output file, or not exactly one error line:"; cat err.txt; failures=$((failures + 1))
  else
    echo "ok   $name refused once, exit non-zero"
  fi
}
refused "bad --sigma" "--sigma must be" account --graph karate --sigma -1 --out bad.json
# Found inside the library, by every rank that computes a share.
printf '0 1\n1 2\n3 4\n' > two_parts.txt
refused "compare on a disconnected graph" "the Muffliato comparison needs a connected graph" \
  compare --graph edgelist:two_parts.txt --rounds 2

echo "$checks checks, $failures failures"
[ "$failures" = 0 ]
