#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Every link of the built docs site to a section (page.html#section, #section) lands on an id of
that page: mkdocs --strict checks that pages exist, not the sections within them.

Usage: anchors.py SITE_DIR"""
import html.parser
import pathlib
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.in_body = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")


def main() -> int:
    site = pathlib.Path(sys.argv[1])
    pages = {}
    for path in site.rglob("*.html"):
        parser = Page()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = parser
    broken = []
    for path, page in pages.items():
        if path.name in ("404.html", "search.html"):
            continue
        for link in page.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or not parts.fragment:
                continue
            target = (path.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path else path
            if target not in pages:
                continue  # a missing page is mkdocs --strict's to report
            if urllib.parse.unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(site.resolve())}: {link} has no such section")
    for line in sorted(set(broken)):
        print(line, file=sys.stderr)
    if broken:
        print(f"{len(set(broken))} links to sections that do not exist", file=sys.stderr)
        return 1
    print(f"every section link of {len(pages)} pages lands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
