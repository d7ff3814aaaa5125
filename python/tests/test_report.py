# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""netdp.report: the page of ``netdp report``, from Python's results and from the command line's files."""

import json
import os
import re

import pytest

import netdp


def page_data(path):
    """The data a report page draws (its <script id="netdp-data">)."""
    with open(path, encoding="utf-8") as f:
        page = f.read()
    found = re.search(r'<script type="application/json" id="netdp-data">(.*?)</script>', page, re.S)
    assert found, "the page holds no data"
    return json.loads(found.group(1))


def test_a_result_gives_the_page_the_command_line_gives(cli, tmp_path):
    document = cli("account", "--graph", "karate", "--rounds", "10", "--sigma", "2")
    (tmp_path / "account.json").write_text(json.dumps(document))
    netdp.report(str(tmp_path / "account.json"), tmp_path / "from_file.html")
    result = netdp.account("karate", rounds=10, sigma=2.0)
    netdp.report(result, tmp_path / "from_result.html")
    from_file, from_result = page_data(tmp_path / "from_file.html"), page_data(tmp_path / "from_result.html")
    a, b = from_file["accounts"][0], from_result["accounts"][0]
    for key in ["by_distance", "cdf", "heatmap", "rows", "per_observer", "certificates", "local_dp_epsilon",
                "central_dp_epsilon", "capped_fraction", "pairs", "nodes", "sigma", "delta", "method", "bound"]:
        assert a[key] == b[key], key
    for key in ["nodes", "edges", "diameter", "degree_max", "layout", "edge_list", "labels"]:
        assert from_file["graph"][key] == from_result["graph"][key], key
    assert from_file["graph"]["spectral_gap"] == pytest.approx(from_result["graph"]["spectral_gap"], rel=1e-9)


def test_training_runs_and_compare_tables_are_shown(tmp_path):
    metrics, summary = netdp.train(algorithm__rounds=20, train__eval_every=5, data__examples=300)
    table = netdp.compare("florentine", rounds=5)
    out = netdp.report([(metrics, summary), table], tmp_path / "r.html", title="runs")
    data = page_data(out["path"])
    assert data["title"] == "runs"
    assert data["training"][0]["metrics"]["round"] == [int(r) for r in metrics["round"]]
    assert data["compares"][0]["paper_formula"] == ["muffliato"]
    assert data["graph"] is None and data["notes"], "no graph: the report says why"


def test_bad_inputs_are_refused_by_name_and_nothing_is_written(tmp_path):
    truncated = tmp_path / "cut.json"
    truncated.write_text('{"pairs": [{"observer": 0')
    foreign = tmp_path / "other.json"
    foreign.write_text('{"name": "another tool"}')
    empty = tmp_path / "run"
    empty.mkdir()
    for bad, why in [(truncated, "is not complete JSON"), (foreign, "is JSON, but not the output of `netdp account"),
                     (empty, "is an empty folder"), (tmp_path / "missing.json", "does not exist")]:
        with pytest.raises(ValueError, match=re.escape(f"'{bad}' {why}")):
            netdp.report(str(bad), tmp_path / "never.html")
    assert not os.path.exists(tmp_path / "never.html")
    with pytest.raises(TypeError, match="results\\[0\\]"):
        netdp.report([42], tmp_path / "never.html")
