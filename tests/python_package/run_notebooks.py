#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Executes each notebook given (nbclient, Debian's python3-nbclient and python3-ipykernel) in a
scratch folder, headless, and fails on the first cell that raises. The kernel inherits this
process's environment (PYTHONPATH to the package of the build, MPLBACKEND=Agg).
Usage: run_notebooks.py NOTEBOOK.ipynb...
"""
import sys
import tempfile

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failed = 0
    for path in sys.argv[1:]:
        notebook = nbformat.read(path, as_version=4)
        with tempfile.TemporaryDirectory() as scratch:
            client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                                    resources={"metadata": {"path": scratch}})
            try:
                client.execute()
            except CellExecutionError as error:
                failed += 1
                print(f"{path}: a cell failed:\n{error}", file=sys.stderr)
                continue
        cells = sum(1 for cell in notebook.cells if cell.cell_type == "code")
        print(f"{path}: {cells} code cells ran")
    print(f"notebooks: {len(sys.argv) - 1 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
