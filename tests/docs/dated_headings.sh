#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The pages are a reference, not a diary: a date such as "(2026-11-27" may appear only in a row of
# a table whose header has a date column (measured results). History is in CHANGELOG.md.
# Usage: dated_headings.sh SOURCE_DIR
set -euo pipefail
cd "$1"
status=0
while IFS= read -r page; do
  # Within a table (consecutive lines starting with "|"), the header is its first line.
  awk -v page="$page" '
    /^\|/ { if (!intable) { header = tolower($0); intable = 1 } }
    !/^\|/ { intable = 0 }
    /\(20[0-9][0-9]-/ {
      if (intable && header ~ /\| *date/) next
      printf "%s:%d: a dated line outside a table with a date column: %s\n", page, NR, $0
      bad = 1
    }
    END { exit bad }' "$page" || status=1
done < <(find docs -name '*.md' | sort)
[ "$status" = 0 ] && echo "no dated headings or dated lines in docs/"
exit "$status"
