# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""netdp.train runs the simulator as `netdp train` does: the same metrics on the same config."""

import csv
import os
import subprocess

import numpy as np
import pytest

import netdp


def cli_metrics(tmp_path, *args):
    run = tmp_path / "cli-run"
    done = subprocess.run([os.environ["NETDP_BINARY"], "train", *args, "--out", str(run), "--quiet"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with open(run / "metrics.csv") as f:
        return list(csv.DictReader(f))


def test_a_dict_config_matches_the_command(tmp_path):
    metrics, summary = netdp.train({"algorithm": {"rounds": 20, "sigma": 2.0}})
    expected = cli_metrics(tmp_path, "--set", "algorithm.rounds=20", "--set", "algorithm.sigma=2.0")
    assert list(metrics["round"]) == [int(r["round"]) for r in expected]
    for column in ("train_loss", "test_loss", "test_accuracy", "consensus_distance", "epsilon"):
        assert np.allclose(metrics[column], [float(r[column]) for r in expected], rtol=1e-12, atol=0)
    assert summary["epsilon"] == pytest.approx(float(expected[-1]["epsilon"]), rel=1e-12)
    assert summary["config"]["algorithm.rounds"] == "20"


def test_a_toml_file_and_overrides(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text("[algorithm]\nrounds = 30\nsigma = 1.5\n")
    metrics, summary = netdp.train(config, algorithm__rounds=20)
    expected = cli_metrics(tmp_path, "--config", str(config), "--set", "algorithm.rounds=20")
    assert np.allclose(metrics["test_loss"], [float(r["test_loss"]) for r in expected], rtol=1e-12, atol=0)
    assert summary["sigma"] == 1.5


def test_errors_are_the_commands():
    with pytest.raises(FileNotFoundError, match="cannot open the file"):
        netdp.train("/nonexistent/run.toml")
    with pytest.raises(ValueError, match="algorithm.roundz"):
        netdp.train({"algorithm.roundz": 3})
