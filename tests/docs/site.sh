#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The docs site builds with mkdocs --strict (a link to a missing page is an error), and every link
# to a section lands on one (anchors.py).
# Usage: site.sh SOURCE_DIR SITE_DIR
set -euo pipefail
root=$1 site=$2
command -v mkdocs > /dev/null || { echo "mkdocs is not installed (apt-get install mkdocs; make test installs it)" >&2; exit 1; }
cd "$root"
mkdocs build --strict --quiet --config-file mkdocs.yml --site-dir "$site"
test -s "$site/index.html" || { echo "the site has no index.html" >&2; exit 1; }
/usr/bin/python3 "$(dirname "$0")/anchors.py" "$site"
# Offline: no page loads a script, style sheet or font from the network.
if grep -rEl '(src|href)="https?://[^"]*\.(js|css|woff2?|ttf)"' "$site" --include='*.html'; then
  echo "these pages load scripts or styles from the network (the site must work offline)" >&2
  exit 1
fi
echo "docs site built in $site"
