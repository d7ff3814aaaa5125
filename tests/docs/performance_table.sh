#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The measured tables of docs/reference/performance.md are what bench/results/*.json render, and
# every row of them has its results file. Usage: tests/docs/performance_table.sh REPOSITORY_ROOT
set -euo pipefail
root=${1:?usage: $0 REPOSITORY_ROOT}
exec /usr/bin/python3 "$root/bench/render_performance.py" --root "$root" --check
