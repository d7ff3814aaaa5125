#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# `pip install --no-build-isolation .` as a user runs it after `make deps`: the checkout's files (what
# git lists, committed or not, without build outputs, and the chart libraries of npm ci) in a scratch
# folder, a venv over Debian's Python
# (--system-site-packages: numpy, scipy, pandas, networkx), pip without the network. Then, from
# outside the source tree, `import netdp` must come from the venv, run an account, and give the
# version the command line prints.
# Usage: pip_install.sh SOURCE_DIR NETDP_BINARY [CMAKE_ARGS]
set -euo pipefail
source_dir=$1
binary=$2
export CMAKE_ARGS=${3:-}
python=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
(cd "$source_dir" && git ls-files -z --cached --others --exclude-standard | grep -zv '^build/' |
  xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$work/src"
# And what `make deps` adds to a checkout that the build reads: the report's chart libraries.
(cd "$source_dir" && tar -cf - node_modules/vega/build/vega.min.js node_modules/vega-lite/build/vega-lite.min.js \
  node_modules/vega-embed/build/vega-embed.min.js) | tar -xf - -C "$work/src"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$work/src"
cd "$work"
location=$(env -u PYTHONPATH "$work/venv/bin/python" -c "import netdp; print(netdp.__file__)")
case $location in
  "$work/venv/"*) ;;
  *) echo "import netdp came from $location, not from the venv" >&2; exit 1 ;;
esac
version=$(env -u PYTHONPATH "$work/venv/bin/python" -c "import netdp; print(netdp.__version__)")
printed=$("$binary" --version)
[[ " $printed " == *" $version "* ]] || { echo "netdp.__version__ $version, netdp --version: $printed" >&2; exit 1; }
pairs=$(env -u PYTHONPATH "$work/venv/bin/python" -c \
  "import netdp; print(netdp.Account('karate', rounds=5).evaluate(1.0).summary['pairs'])")
[ "$pairs" = 1122 ] || { echo "the installed package's account of karate has $pairs pairs, not 1122" >&2; exit 1; }
echo "pip install: netdp $version from $location, karate account of $pairs pairs"
