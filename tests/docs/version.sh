#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The version `netdp --version` prints is the newest release of CHANGELOG.md (Keep a Changelog:
# "## [Unreleased]" first, then "## [X.Y.Z] - YYYY-MM-DD"). The Python package reports the same
# version (python/tests/test_account_object.py).
# Usage: version.sh SOURCE_DIR NETDP_BINARY
set -euo pipefail
root=$1 netdp=$2
printed=$("$netdp" --version)
[[ "$printed" =~ ^netdp\ ([0-9]+\.[0-9]+\.[0-9]+)$ ]] || { echo "netdp --version printed '$printed', not 'netdp X.Y.Z'" >&2; exit 1; }
version=${BASH_REMATCH[1]}
grep -qx '## \[Unreleased\]' "$root/CHANGELOG.md" || { echo "CHANGELOG.md has no '## [Unreleased]' section" >&2; exit 1; }
newest=$(grep -oE '^## \[[0-9]+\.[0-9]+\.[0-9]+\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$' "$root/CHANGELOG.md" | head -n 1 || true)
[ -n "$newest" ] || { echo "CHANGELOG.md has no release heading '## [X.Y.Z] - YYYY-MM-DD'" >&2; exit 1; }
[[ "$newest" == "## [$version] - "* ]] || { echo "CHANGELOG.md's newest release is '$newest', netdp --version is $version" >&2; exit 1; }
echo "netdp $version is CHANGELOG.md's newest release"
