#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Every source file says its licence (SPDX, Apache-2.0, the LICENSE file) in its first lines.
# Usage: spdx.sh SOURCE_DIR
set -euo pipefail
cd "$1"
test -s LICENSE && grep -q "Apache License" LICENSE || { echo "LICENSE is missing or not Apache-2.0" >&2; exit 1; }
missing=0
checked=0
while IFS= read -r -d '' file; do
  checked=$((checked + 1))
  head -n 4 "$file" | grep -q "SPDX-License-Identifier: Apache-2.0" || { echo "$file: no SPDX-License-Identifier: Apache-2.0 header" >&2; missing=$((missing + 1)); }
done < <(find . \( -path ./build -o -path ./node_modules -o -path ./.git -o -path ./tests/fuzz/corpus \
                 -o -path ./tests/golden/expected \) -prune -o -type f \
              \( -name '*.cpp' -o -name '*.hpp' -o -name '*.py' -o -name '*.sh' -o -name '*.cmake' \
                 -o -name CMakeLists.txt -o -name Makefile -o -name '*.sbatch' \) -print0)
[ "$checked" -gt 100 ] || { echo "only $checked source files found under $1" >&2; exit 1; }
[ "$missing" = 0 ] || { echo "$missing of $checked source files have no licence header" >&2; exit 1; }
echo "$checked source files carry SPDX-License-Identifier: Apache-2.0"
