#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The golden corpus (commands.txt): the exit code, standard output, standard error and the files
# written by each command (text as it is, a .npy as its values), compared with expected/NNN.txt, or
# written there with --record. A record that differs byte for byte still matches when its text is
# the same and its numbers agree to 1e-9 relative (compare_golden.py): another processor may get
# other BLAS kernels, which round the last bits differently.
# Usage: run_golden.sh [--record] NETDP_BINARY
# The outputs are a behaviour contract for refactorings: a change that alters one must say why,
# and re-record (docs/reference/testing.md, "The golden corpus").
set -euo pipefail
record=0
if [ "${1:-}" = --record ]; then record=1; shift; fi
netdp=$(realpath "${1:?usage: run_golden.sh [--record] NETDP_BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
expected=$here/expected
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ "$record" = 1 ] && { rm -rf "$expected"; mkdir -p "$expected"; }

correlation() {  # a 5 x 5 lower-bidiagonal correlation C for --algorithm mf-d-sgd
  printf '%%%%MatrixMarket matrix coordinate real general\n5 5 9\n'
  for i in 1 2 3 4 5; do echo "$i $i 1"; done
  for i in 2 3 4 5; do echo "$i $((i - 1)) -0.5"; done
}

failed=0
approximate=0
count=0
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  count=$((count + 1))
  id=$(printf '%03d' "$count")
  work=$scratch/$id
  mkdir -p "$work"
  correlation > "$work/C.mtx"
  read -r -a args <<< "$line"
  set +e
  (cd "$work" && OMP_NUM_THREADS=2 "$netdp" "${args[@]}" > stdout 2> stderr)
  code=$?
  set -e
  {
    echo "\$ netdp $line"
    echo "exit $code"
    echo "--- stdout"
    cat "$work/stdout"
    echo "--- stderr"
    cat "$work/stderr"
    echo "--- files"
    (cd "$work" && find . -type f ! -name stdout ! -name stderr ! -name C.mtx | LC_ALL=C sort |
      while read -r f; do
        echo "=== $f"
        if [[ "$f" == *.npy ]]; then
          /usr/bin/python3 -c 'import sys, numpy; a = numpy.load(sys.argv[1]); print(a.dtype, a.shape)
print("\n".join(repr(float(x)) for x in a.ravel()))' "$f"
        else
          cat "$f"
        fi
      done)
  } > "$scratch/$id.txt"
  if [ "$record" = 1 ]; then
    cp "$scratch/$id.txt" "$expected/$id.txt"
  elif ! cmp -s "$expected/$id.txt" "$scratch/$id.txt"; then
    if /usr/bin/python3 "$here/compare_golden.py" "$expected/$id.txt" "$scratch/$id.txt" > "$scratch/$id.why"; then
      echo "golden $id: equal to 1e-9 relative, not byte for byte: netdp $line"
      approximate=$((approximate + 1))
    else
      echo "golden $id differs: netdp $line"
      cat "$scratch/$id.why"
      diff -u "$expected/$id.txt" "$scratch/$id.txt" | head -40
      failed=$((failed + 1))
    fi
  fi
  rm -rf "$work"
done < "$here/commands.txt"
if [ "$record" = 1 ]; then
  echo "recorded $count commands in $expected"
elif [ "$failed" -gt 0 ]; then
  echo "$failed of $count golden commands differ"
  exit 1
else
  echo "all $count golden commands match ($((count - approximate)) byte for byte, $approximate to 1e-9 relative)"
fi
