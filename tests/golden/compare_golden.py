# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Compares a golden record with a new one: equal text, and numbers equal to 1e-9 relative.

Usage: compare_golden.py EXPECTED ACTUAL. Exit 0 when they agree so (a record is byte for byte the
same on the machine that wrote it; on another, BLAS kernels chosen at run time for its processor
may round the last bits differently), 1 otherwise, with the first difference.
"""

import math
import re
import sys

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)")
RELATIVE = 1e-9


def pieces(text):
    out, at = [], 0
    for m in NUMBER.finditer(text):
        out.append(("text", text[at:m.start()]))
        out.append(("number", m.group()))
        at = m.end()
    out.append(("text", text[at:]))
    return out


def close(a, b):
    x, y = float(a), float(b)
    if x == y or (math.isnan(x) and math.isnan(y)):
        return True
    return abs(x - y) <= RELATIVE * max(abs(x), abs(y))


def main():
    expected = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    actual = open(sys.argv[2], encoding="utf-8", errors="replace").read()
    a, b = pieces(expected), pieces(actual)
    if len(a) != len(b):
        print("the records differ in their text, not only in numbers")
        return 1
    for (kind, x), (_, y) in zip(a, b):
        if (kind == "text" and x != y) or (kind == "number" and not close(x, y)):
            print(f"first difference: {x!r} recorded, {y!r} now")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
