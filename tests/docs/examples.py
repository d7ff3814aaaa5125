#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The outputs shown in the docs are what the commands print.

For each Markdown page, every ```sh or ```python block directly followed by a plain ``` block (its
output) is run, and what it prints (stdout, then stderr) must equal that output block, line by line
(trailing spaces and trailing blank lines aside). The blocks of one page run in order, in one
temporary folder that stands for the repository root: it holds `build/release/bin/netdp` (the given
binary), `build/release/python` (the given package folder) and a link to every other top-level
entry of the repository except `build` and `out`, so files a block writes (`out/...`, `first-hour/`)
stay in the temporary folder and are seen by the later blocks of the same page. sh blocks run with
`bash -c`; python blocks with /usr/bin/python3. Both get PYTHONPATH (the package folder),
NETDP_BINARY (the binary), MPLBACKEND=Agg and the Open MPI variables that allow running as root and
more ranks than cores.

Outputs that vary between runs are declared by an HTML comment on the line before the code block
(several such lines may be stacked):

    <!-- output: lines matching 'accounted .* in [0-9.]+ s' vary -->
        the lines of the output block that match the regex (in full) need only match it
        in the run, at the same line; the other lines must be equal.
    <!-- output: not checked (REASON) -->
        the block is not run; the REASON is printed.
    <!-- output: slow -->
        the block runs only with --slow (it takes more than about 10 s).
    <!-- output: excerpt -->
        the output block shows some lines of the output: they must appear in the run's output, in
        that order (other lines of the run are ignored).
    <!-- output: saved as NAME.py -->
        a python block is saved as NAME.py (the name the page gives it) rather than snippet.py,
        so the warnings that name the file match.
    <!-- output: none (run: REASON) -->
        on a block without an output block: it is run (its output is not checked) because the
        blocks after it read the files it writes; without this, such blocks are not run.

Usage: examples.py [--slow] [--update] REPO_ROOT NETDP_BINARY PYTHON_PACKAGE_DIR PAGE.md...

--update rewrites the stale output blocks in place (lines declared as varying keep the page's
text when the run matches them). Every mismatch is printed as a unified diff naming the page and
the block; the exit status is 1 if any block does not match (without --update), 0 otherwise."""
import difflib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^```(\S*)\s*$")
MARKER = re.compile(r"^<!--\s*output:\s*(.*?)\s*-->\s*$")
VARY = re.compile(r"^lines matching '(.*)' vary$")
NOT_CHECKED = re.compile(r"^not checked \((.+)\)$")
RUN_ONLY = re.compile(r"^none \(run: (.+)\)$")
SAVED_AS = re.compile(r"^saved as (\S+\.py)$")
TIMEOUT_S = 600


class Block:
    def __init__(self, lang: str, start: int, end: int, body: list[str]) -> None:
        self.lang = lang
        self.start = start  # line index of the opening fence
        self.end = end  # line index of the closing fence
        self.body = body


def parse_blocks(lines: list[str], page: str) -> list[Block]:
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        if j == len(lines):
            raise SystemExit(f"{page}:{i + 1}: a code block is not closed")
        blocks.append(Block(m.group(1), i, j, lines[i + 1:j]))
        i = j + 1
    return blocks


def markers(lines: list[str], block: Block, page: str) -> list[str]:
    found = []
    k = block.start - 1
    while k >= 0 and lines[k].lstrip().startswith("<!--"):
        m = MARKER.match(lines[k].strip())
        if m:
            found.append(m.group(1))
        k -= 1
    for spec in found:
        if spec != "slow" and not any(p.match(spec) for p in (VARY, NOT_CHECKED, RUN_ONLY, SAVED_AS)) \
                and spec != "excerpt":
            raise SystemExit(f"{page}:{block.start}: unknown output marker: {spec!r}")
    return found


def make_root(repo: pathlib.Path, binary: pathlib.Path, package: pathlib.Path) -> pathlib.Path:
    """A scratch checkout: the repository's entries linked, the given binary and package at
    build/release, and ../shared beside it when the repository has one (the pages' data sets)."""
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="netdp-docs-examples-"))
    if (repo.parent / "shared").exists():
        (scratch / "shared").symlink_to((repo.parent / "shared").resolve())
    root = scratch / "netdp"
    root.mkdir()
    for entry in repo.iterdir():
        if entry.name not in ("build", "out", ".git"):
            (root / entry.name).symlink_to(entry)
    (root / "build/release/bin").mkdir(parents=True)
    (root / "build/release/bin/netdp").symlink_to(binary)
    (root / "build/release/python").symlink_to(package)
    return root


def run(block: Block, root: pathlib.Path, env: dict[str, str], name: str = "snippet.py") -> str:
    """sh: stdout, then stderr. python: both as they come (unbuffered), so a warning shows where
    it is raised. The temporary folder prints as "…"."""
    body = "\n".join(block.body) + "\n"
    try:
        if block.lang == "sh":
            r = subprocess.run(["bash", "-c", body], cwd=root, env=env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=TIMEOUT_S)
            out = r.stdout + r.stderr
        else:
            script = root / name
            script.write_text(body, encoding="utf-8")
            r = subprocess.run(["/usr/bin/python3", str(script)], cwd=root, env=dict(env, PYTHONUNBUFFERED="1"),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               stdin=subprocess.DEVNULL, timeout=TIMEOUT_S)
            out = r.stdout
    except subprocess.TimeoutExpired:
        out = f"(timed out after {TIMEOUT_S} s)\n"
    return out.replace(str(root), "…")


NUMBER = re.compile(r"(?<![\w.])[-+]?[0-9][0-9.e+-]*")


def shape(line: str) -> str:
    """The line with its numbers after the first one (its key, such as a distance) left out."""
    line = " ".join(line.split())
    first = NUMBER.search(line)
    return line if first is None else line[:first.end()] + NUMBER.sub("#", line[first.end():])


def compare_excerpt(expected: list[str], got: list[str]) -> tuple[bool, list[str], list[str]]:
    """Whether the lines of expected appear in got in order; the run's lines that stand for them
    (an equal line, else the next line of the same shape with other numbers), and the lines to
    write back with --update."""
    ok = True
    matched, update = [], []
    k = 0
    for e in expected:
        j = next((j for j in range(k, len(got)) if got[j] == e), None)
        if j is None:
            ok = False
            j = next((j for j in range(k, len(got)) if shape(got[j]) == shape(e)), None)
        if j is None:
            matched.append("(no such line)")
            update.append(e)
            continue
        matched.append(got[j])
        update.append(got[j])
        k = j + 1
    return ok, matched, update


def normalise(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def compare(expected: list[str], got: list[str], vary: list[re.Pattern[str]]) -> tuple[bool, list[str]]:
    """Whether got matches expected, and the lines to write back with --update."""
    update = list(got)
    ok = len(expected) == len(got)
    for k, (e, g) in enumerate(zip(expected, got)):
        pattern = next((p for p in vary if p.fullmatch(e)), None)
        if pattern is not None and pattern.fullmatch(g):
            update[k] = e
        elif e != g:
            ok = False
    return ok, update


def main() -> int:
    args = sys.argv[1:]
    slow = "--slow" in args
    update = "--update" in args
    args = [a for a in args if a not in ("--slow", "--update")]
    if len(args) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    repo, binary, package = (pathlib.Path(a).resolve() for a in args[:3])
    pages = [pathlib.Path(a) for a in args[3:]]
    env = dict(os.environ, PYTHONPATH=str(package), NETDP_BINARY=str(binary), MPLBACKEND="Agg",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    checked = mismatches = skipped = 0
    for page in pages:
        path = page if page.is_absolute() else repo / page
        name = str(page)
        lines = path.read_text(encoding="utf-8").split("\n")
        blocks = parse_blocks(lines, name)
        root = make_root(repo, binary, package)
        edits: list[tuple[Block, list[str]]] = []
        try:
            for i, block in enumerate(blocks):
                if block.lang not in ("sh", "python") or i + 1 == len(blocks):
                    continue
                output = blocks[i + 1]
                between = lines[block.end + 1:output.start]
                where = f"{name}:{block.start + 1}"
                specs = markers(lines, block, name)
                if output.lang != "" or any(line.strip() for line in between):
                    if any(RUN_ONLY.match(s) for s in specs):
                        began = time.monotonic()
                        run(block, root, env)
                        print(f"{where}: {block.lang} block run, no output to check ({time.monotonic() - began:.1f} s)")
                    continue
                reason = next((NOT_CHECKED.match(s).group(1) for s in specs if NOT_CHECKED.match(s)), None)
                if reason is not None:
                    print(f"{where}: not checked ({reason})")
                    skipped += 1
                    continue
                shared = (repo.parent / "shared").resolve()
                if any("../shared" in line for line in block.body) and not shared.exists():
                    print(f"{where}: not run: it needs ../shared, absent at {shared}")
                    skipped += 1
                    continue
                if "slow" in specs and not slow:
                    print(f"{where}: slow, not run (run with --slow)")
                    skipped += 1
                    continue
                vary = [re.compile(VARY.match(s).group(1)) for s in specs if VARY.match(s)]
                saved = next((SAVED_AS.match(s).group(1) for s in specs if SAVED_AS.match(s)), "snippet.py")
                began = time.monotonic()
                got = normalise(run(block, root, env, saved))
                seconds = time.monotonic() - began
                expected = normalise("\n".join(output.body))
                if "excerpt" in specs:
                    ok, got, new = compare_excerpt(expected, got)
                else:
                    ok, new = compare(expected, got, vary)
                checked += 1
                status = "ok" if ok else "MISMATCH"
                print(f"{where}: {block.lang} block {status} ({seconds:.1f} s)", flush=True)
                if not ok:
                    mismatches += 1
                    sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                        expected, got, f"{where} (page)", f"{where} (run)", lineterm=""))
                    edits.append((output, new))
        finally:
            shutil.rmtree(root.parent, ignore_errors=True)
        if update and edits:
            for output, new in reversed(edits):
                lines[output.start + 1:output.end] = new
            path.write_text("\n".join(lines), encoding="utf-8")
            print(f"{name}: rewrote {len(edits)} output block(s)")
    print(f"{checked} blocks checked, {mismatches} mismatches, {skipped} not run")
    return 1 if mismatches and not update else 0


if __name__ == "__main__":
    sys.exit(main())
