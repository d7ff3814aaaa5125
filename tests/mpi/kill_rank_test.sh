#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# A rank killed in the middle of `mpirun -np 2 netdp account --out F`: mpirun exits non-zero and
# says which rank died, and F does not exist (the output is written to a temporary name and renamed
# only once complete).
# Usage: kill_rank_test.sh NETDP_BINARY
set -euo pipefail
# shellcheck source=tests/mpi/mpi_env.sh
source "$(dirname "$0")/mpi_env.sh"
# About a minute of work on one core per rank: long enough to be killed in.
OMP_NUM_THREADS=1 mpirun -np 2 -x OMP_NUM_THREADS "$netdp" account --graph ba:n=1500,m=3,seed=2 --rounds 15 \
  --json --out result.json > out.txt 2> err.txt &
launcher=$!
# Rank 1: the netdp process whose environment says OMPI_COMM_WORLD_RANK=1.
victim=""
for _ in $(seq 1 200); do
  for pid in $(pgrep -f "netdp account --graph ba:n=1500" || true); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then victim=$pid; fi
  done
  [ -n "$victim" ] && break
  sleep 0.05
done
[ -n "$victim" ] || { echo "FAIL: rank 1 never started"; kill "$launcher" 2>/dev/null; exit 1; }
sleep 2
kill -9 "$victim"
status=0
wait "$launcher" || status=$?
if [ "$status" = 0 ]; then echo "FAIL: mpirun exited 0 after rank 1 was killed"; exit 1; fi
if [ -e result.json ]; then echo "FAIL: result.json exists after the run was killed"; exit 1; fi
if ! grep -qi "rank 1" err.txt; then echo "FAIL: mpirun did not say which rank died:"; cat err.txt; exit 1; fi
leftovers=$(ls -A | grep -v -e '^out.txt$' -e '^err.txt$' || true)
echo "ok: mpirun exited $status, no result.json${leftovers:+ (left: $leftovers)}; it said:"
grep -i "rank 1" err.txt | head -2
