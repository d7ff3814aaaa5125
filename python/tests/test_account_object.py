# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""netdp.Account: built once, evaluated at any σ and δ, calibrated, streamed; labelled results; typed
warnings; the version."""

import os
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest

import netdp

METHODS = [("muffliato", {}), ("random-walk", {"rounds": 200}), ("linear-system", {}), ("mf", {})]


def _rows_equal(a, b):
    assert a.rows.keys() == b.rows.keys()
    for key in a.rows:
        np.testing.assert_array_equal(a.rows[key], b.rows[key], err_msg=key)


@pytest.mark.parametrize("method,extra", METHODS)
def test_an_account_evaluated_at_many_sigmas_gives_the_one_call_numbers(method, extra):
    options = {"rounds": 6, **extra}
    built = netdp.Account("karate", method=method, **options)
    for sigma in (0.5, 2.0, 7.0):
        for delta in (1e-5, 1e-3):
            _rows_equal(built.evaluate(sigma, delta),
                        netdp.account("karate", method=method, sigma=sigma, delta=delta, **options))
    assert built.pair_count == 34 * 33
    assert built.method == method


def test_calibration_on_an_account_is_the_one_call_calibration():
    built = netdp.Account("karate", rounds=6)
    for on in ("mean", "max"):
        assert built.calibrate(2.0, on=on) == netdp.calibrate("karate", 2.0, rounds=6, on=on)
    pair = built.calibrate(2.0, on=(0, 5))
    assert pair["on"] == (0, 5)
    one = netdp.calibrate("karate", 2.0, rounds=6, on="pair", observers=0, targets=5)
    assert pair["sigma"] == one["sigma"] and pair["achieved_epsilon"] == one["achieved_epsilon"]
    with pytest.raises(ValueError, match="on must be"):
        built.calibrate(2.0, on=(0, 1, 2))


def test_rows_stream_in_chunks_that_make_up_the_whole_account():
    built = netdp.Account("karate", method="random-walk", rounds=100)
    chunks = list(built.rows(3.0, chunk=200))
    assert [len(c) for c in chunks] == [200] * 5 + [122]
    assert all(isinstance(c, pd.DataFrame) for c in chunks)
    whole = pd.concat(chunks, ignore_index=True)
    pd.testing.assert_frame_equal(whole, built.evaluate(3.0).to_pandas(), check_like=False)


def test_leaving_the_stream_early_stops_it_and_the_account_goes_on():
    built = netdp.Account("hypercube:d=6", rounds=4)
    for chunk in built.rows(1.0, chunk=64):
        assert len(chunk) == 64
        break
    assert built.evaluate(1.0).summary["pairs"] == 64 * 63


def test_a_pair_is_its_row_of_the_whole_account():
    built = netdp.Account("karate", rounds=6)
    whole = built.evaluate(1.5).to_pandas().set_index(["observer", "target"])
    row = built.pair(3, 17, 1.5)
    expected = whole.loc[(3, 17)]
    for field in ("distance", "mu", "epsilon", "rdp_epsilon", "certificate"):
        assert row[field] == expected[field], field
    assert row["observer"] == 3 and row["target"] == 17
    with pytest.raises(KeyError, match="target: 'nobody' names no node"):
        built.pair(3, "nobody", 1.5)
    with pytest.raises(ValueError, match="not a pair of distinct nodes"):
        built.pair(3, 3, 1.5)


def test_the_certificate_kinds_do_not_depend_on_sigma():
    built = netdp.Account("ring:n=7", rounds=5)
    kinds = built.certificate
    for sigma in (0.3, 4.0):
        np.testing.assert_array_equal(kinds, built.evaluate(sigma).certificate)


def test_the_epsilon_frame_and_the_xarray_are_labelled():
    g = netdp.Graph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)], labels=["ann", "bob", "cy", "dee"])
    result = netdp.account(g, rounds=4, observers=["bob", "dee"])
    frame = result.epsilon_frame()
    assert list(frame.index) == ["bob", "dee"] and list(frame.columns) == ["ann", "bob", "cy", "dee"]
    np.testing.assert_array_equal(frame.to_numpy(), result.epsilon)
    assert np.isnan(frame.loc["bob", "bob"])
    xr = result.to_xarray()
    np.testing.assert_array_equal(xr["epsilon"].sel(observer="dee").values, result.epsilon[1])
    assert xr.attrs["bound"] == result.bound


def test_warnings_are_raised_under_their_categories():
    with pytest.warns(netdp.NumericalWarning, match="effort"):
        netdp.account("karate", rounds=10, exact_effort=100)
    with pytest.warns(netdp.PaperFormulaWarning, match="not an upper bound"):
        netdp.account("karate", rounds=10, bound="paper")
    with warnings.catch_warnings():
        warnings.simplefilter("error", netdp.NetdpWarning)
        with pytest.raises(netdp.PaperFormulaWarning):
            netdp.Account("karate", rounds=10, bound="paper").evaluate(1.0)
        netdp.account("karate", rounds=10)  # a valid bound with no diagnostic warns nothing


def test_warnings_point_at_the_callers_line():
    with pytest.warns(netdp.PaperFormulaWarning) as one_call:
        netdp.account("ring:n=5", rounds=3, bound="paper")
    with pytest.warns(netdp.PaperFormulaWarning) as evaluated:
        netdp.Account("ring:n=5", rounds=3, bound="paper").evaluate(1.0)
    with pytest.warns(netdp.PaperFormulaWarning) as one_pair:
        netdp.Account("ring:n=5", rounds=3, bound="paper").pair(0, 2, 1.0)
    for record in (one_call, evaluated, one_pair):
        assert record[0].filename == __file__


def test_an_empty_selection_is_every_node_as_in_the_command_line():
    result = netdp.account("ring:n=5", rounds=3, observers=[], targets=[])
    assert result.epsilon.shape == (5, 5) and result.summary["pairs"] == 20


def test_a_reader_change_is_an_input_changed_warning(tmp_path):
    path = tmp_path / "loop.edges"
    path.write_text("a b\nb b\nb c\nc a\n")
    with pytest.warns(netdp.InputChangedWarning, match="1 self-loop dropped"):
        netdp.graph(f"edgelist:{path}")
    assert issubclass(netdp.InputChangedWarning, UserWarning)


def test_the_version_is_the_command_lines():
    binary = os.environ.get("NETDP_BINARY")
    if not binary:
        pytest.fail("NETDP_BINARY must name the netdp binary of this build (ctest sets it)")
    printed = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    assert netdp.__version__ in printed.split()


@pytest.mark.parametrize("call,error,match", [
    (lambda a: a.evaluate(float("nan")), ValueError, "sigma must be a finite number > 0"),
    (lambda a: a.evaluate("1.0"), TypeError, "sigma must be a number"),
    (lambda a: a.evaluate(1.0, delta=2.0), ValueError, r"delta must be in \(0, 1\)"),
    (lambda a: a.calibrate(None), TypeError, "target_epsilon must be a number"),
    (lambda a: a.calibrate(1.0, on="median"), ValueError, "median"),
    (lambda a: a.rows(1.0, chunk=0), ValueError, "chunk must be >= 1"),
    (lambda a: a.pair("nobody", 1, 1.0), KeyError, "observer: 'nobody' names no node"),
    (lambda a: a.calibrate(1.0, on=(0, "nobody")), KeyError, "on: 'nobody' names no node"),
])

def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call(netdp.Account("ring:n=5", rounds=3))


def test_an_unknown_label_names_its_argument():
    with pytest.raises(KeyError, match="targets: 'nobody' names no node"):
        netdp.account("ring:n=5", rounds=3, targets=["nobody"])
    with pytest.raises(KeyError, match="observers: 99 names no node"):
        netdp.Account("ring:n=5", rounds=3, observers=99)


def test_ctrl_c_interrupts_building_an_account(seconds_until_interrupted):
    # about 2.5 s uninterrupted
    elapsed = seconds_until_interrupted(lambda: netdp.Account("er:n=300,p=0.05,seed=1,connected=1", rounds=12))
    assert elapsed < 1.3, f"KeyboardInterrupt after {elapsed:.2f} s"
    assert netdp.Account("ring:n=5", rounds=3).evaluate(1.0).summary["pairs"] == 20


def test_the_library_can_be_called_while_rows_stream():
    # The stream computes without holding the library while its queue waits for Python.
    built = netdp.Account("hypercube:d=5", rounds=4)
    total = 0
    for chunk in built.rows(1.0, chunk=100):
        total += len(chunk)
        assert built.evaluate(2.0).summary["pairs"] == 32 * 31
    assert total == 32 * 31
