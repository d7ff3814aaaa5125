# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The scripts of examples/python run and write what they say."""

import os
import pathlib
import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def run(script, *args, cwd):
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_png(path):
    image = plt.imread(path)
    assert len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)) > 20


def test_figure_two(tmp_path):
    out = run("mf_figure2.py", str(tmp_path / "f2.png"), cwd=tmp_path)
    assert "wrote" in out
    assert_png(tmp_path / "f2.png")


def test_calibration_on_networkx(tmp_path):
    out = run("calibrate_networkx.py", cwd=tmp_path)
    assert "gives mean pairwise epsilon 1" in out
    assert "peer-" in out


def test_npy_heatmap(tmp_path):
    done = subprocess.run([os.environ["NETDP_BINARY"], "account", "--graph", "florentine", "--rounds", "10",
                           "--out", str(tmp_path / "eps.npy"), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = run("npy_heatmap.py", str(tmp_path / "eps.npy"), str(tmp_path / "h.png"), cwd=tmp_path)
    assert "15 nodes" in out
    assert_png(tmp_path / "h.png")
