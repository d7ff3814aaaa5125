# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Every figure renders headless (Agg) to a PNG that is not blank."""

import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import netdp  # noqa: E402


def assert_not_blank(fig, path):
    fig.savefig(path, dpi=60)
    plt.close(fig)
    image = plt.imread(path)
    assert image.shape[0] > 50 and image.shape[1] > 50
    # Many distinct colours: axes, boxes, a colour map.
    assert len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)) > 20


def test_account_figures(tmp_path):
    result = netdp.account("florentine", rounds=6, sigma=2.0)
    assert_not_blank(netdp.plot.epsilon_by_distance(result), tmp_path / "distance.png")
    assert_not_blank(netdp.plot.pairwise_heatmap(result), tmp_path / "heatmap.png")
    assert_not_blank(netdp.plot.observer_graph(result, "Medici"), tmp_path / "observer.png")


def test_training_curves_from_a_run_folder(tmp_path):
    run = tmp_path / "run"
    done = subprocess.run([os.environ["NETDP_BINARY"], "train", "--set", "algorithm.rounds=20", "--out", str(run),
                           "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert_not_blank(netdp.plot.training_curves(run), tmp_path / "train.png")
