# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Every accountant through Python equals the command line's JSON on the same case."""

import math

import numpy as np
import pytest

import netdp

# (graph, rounds, sigma, method options), each also as `netdp account` flags.
CASES = [
    ("florentine", 4, 1.0, {"method": "muffliato"}),
    ("florentine", 4, 1.0, {"method": "muffliato", "bound": "paper"}),
    ("ring:n=8", 3, 1.0, {"method": "muffliato", "gradient_steps": 3}),
    ("karate", 200, 5.0, {"method": "random-walk"}),
    ("karate", 200, 5.0, {"method": "random-walk", "contributions": "expected", "sender_known": True}),
    ("ring:n=7", 3, 1.0, {"method": "linear-system"}),
    ("ring:n=7", 3, 1.0, {"method": "linear-system", "view": "plain", "release_dimension": 1,
                          "sign_search": "auto"}),
    ("ring:n=7", 3, 1.0, {"method": "mf"}),
    ("ring:n=7", 3, 1.0, {"method": "mf", "algorithm": "decor", "trust": "secldp"}),
    ("ring:n=7", 4, 1.0, {"method": "mf", "algorithm": "antipgd", "participations": 2, "separation": 2}),
]


def flags(options):
    out = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            out.append(flag)
        else:
            out += [flag, str(value)]
    return out


@pytest.mark.parametrize("graph,rounds,sigma,options", CASES)
def test_every_accountant_matches_the_command_line(cli, graph, rounds, sigma, options):
    options = dict(options)
    method = options.pop("method")
    result = netdp.account(graph, method, rounds=rounds, sigma=sigma, **options)
    expected = cli("account", "--graph", graph, "--method", method, "--rounds", str(rounds), "--sigma",
                   str(sigma), *flags(options))
    pairs = {(p["observer"], p["target"]): p for p in expected["pairs"]}
    frame = result.to_pandas()
    assert len(frame) == len(pairs) > 0
    for row in frame.itertuples():
        want = pairs[(row.observer, row.target)]
        assert row.epsilon == pytest.approx(want["epsilon"], rel=1e-12, abs=1e-15)
        if want["mu"] is None:
            assert math.isnan(row.mu)
        else:
            assert row.mu == pytest.approx(want["mu"], rel=1e-12, abs=1e-15)
        assert row.capped == want["capped"]
        assert row.distance == want["distance"]
    assert result.bound == expected["summary"]["bound"]
    for field in ("pairs", "epsilon_max", "epsilon_median", "capped_pairs", "mu_max"):
        assert result.summary[field] == pytest.approx(expected["summary"][field], rel=1e-12)


def test_matrices_follow_the_requested_labels():
    result = netdp.account("florentine", rounds=4, observers=["Medici", "Strozzi"],
                           targets=["Pazzi", "Medici"])
    assert result.observers == ["Medici", "Strozzi"]
    assert result.targets == ["Pazzi", "Medici"]
    assert result.epsilon.shape == (2, 2)
    assert math.isnan(result.epsilon[0, 1])  # Medici with itself is not a pair
    frame = result.to_pandas().set_index(["observer", "target"])
    assert result.epsilon[1, 0] == frame.loc[("Strozzi", "Pazzi"), "epsilon"]
    assert result.summary["pairs"] == 3


def test_a_coalition_is_one_observer_row():
    result = netdp.account("florentine", rounds=4, colluders=["Medici", "Strozzi"])
    assert result.colluders == ["Medici", "Strozzi"]
    assert result.epsilon.shape == (1, 15)
    assert np.isnan(result.epsilon).sum() == 2  # the two members are not targets


def test_options_and_values_are_checked_by_the_names_python_gives_them():
    with pytest.raises(ValueError, match="`bound` paper: only `method` muffliato has a paper formula"):
        netdp.account("ring:n=5", "linear-system", bound="paper")
    with pytest.raises(ValueError, match="`view`, `first_power` and `keep_observer_noise` apply to"):
        netdp.account("ring:n=5", view="plain")
    with pytest.raises(TypeError, match="unknown option 'viewz'"):
        netdp.account("ring:n=5", viewz="plain")
    with pytest.raises(ValueError, match="sigma must be a finite number > 0"):
        netdp.account("ring:n=5", sigma=0.0)
    with pytest.raises(KeyError, match="'Borgia' names no node"):
        netdp.account("florentine", observers="Borgia")
    with pytest.raises(ValueError, match="disconnected"):
        netdp.account(netdp.Graph.from_edges([[0, 1], [2, 3]]))


def test_options_take_numbers_as_numbers():
    # A count, a cap and a dimension are numbers in Python, as the option table types them.
    walk = netdp.account("ring:n=6", "random-walk", rounds=30, contributions=1)
    capped = netdp.account("ring:n=6", "random-walk", rounds=30, contributions="1")
    np.testing.assert_array_equal(walk.epsilon, capped.epsilon)
    mf = netdp.account("ring:n=6", "mf", rounds=4, participations=2, release_dimension=1)
    assert mf.epsilon.shape == (6, 6)
    share = netdp.account("ring:n=6", "random-walk", rounds=30, tail_share=0.25)
    assert share.epsilon.shape == (6, 6)


def test_a_wrong_type_names_the_option_and_the_type():
    with pytest.raises(TypeError, match="option tail_share takes a number, got str 'half'"):
        netdp.account("ring:n=6", "random-walk", tail_share="half")
    with pytest.raises(TypeError, match="participations must be an integer"):
        netdp.account("ring:n=6", "mf", participations="2")
    with pytest.raises(TypeError, match="option sender_known takes True or False"):
        netdp.account("ring:n=6", "random-walk", sender_known=1)
    with pytest.raises(TypeError, match="option view takes one of secure-sum"):
        netdp.account("ring:n=6", "linear-system", view=1)
    with pytest.raises(ValueError, match="contributions must be a whole number, got 1.5"):
        netdp.account("ring:n=6", "random-walk", contributions=1.5)


def test_the_option_table_is_the_keywords():
    names = {row["name"] for row in netdp._netdp.account_options()}
    assert {"tail_share", "contributions", "release_dimension", "correlation", "method"} <= names
    for row in netdp._netdp.account_options():
        assert row["methods"], row["name"]
        assert row["type"] in {"flag", "count", "integer", "real", "choice", "count_or_choice", "dimension", "matrix"}


def test_a_long_call_releases_the_gil():
    # A Python thread keeps counting while the accountant works.
    import threading
    import time

    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    start = time.monotonic()
    netdp.account("er:n=150,p=0.08,seed=1,connected=1", rounds=10)
    end = time.monotonic()
    stop.set()
    thread.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05
    assert len(during) >= 10, f"{len(during)} ticks in {end - start:.2f} s"


@pytest.mark.parametrize("method,rounds,on", [("muffliato", 6, "max"), ("muffliato", 6, "mean"),
                                              ("random-walk", 60, "mean")])
def test_calibrate_matches_the_command_line(cli, method, rounds, on):
    got = netdp.calibrate("florentine", 1.0, method=method, rounds=rounds, on=on)
    expected = cli("account", "--graph", "florentine", "--method", method, "--rounds", str(rounds),
                   "--target-epsilon", "1", "--calibrate-on", on, "--summary-only")["summary"]["calibration"]
    assert got["sigma"] == pytest.approx(expected["sigma"], rel=1e-12)
    assert got["achieved_epsilon"] <= 1.0
    assert got["closed_form"] == expected["closed_form"]
    result = netdp.account("florentine", method, rounds=rounds, sigma=got["sigma"])
    statistic = result.summary["epsilon_max" if on == "max" else "epsilon_mean"]
    assert statistic == pytest.approx(got["achieved_epsilon"], rel=1e-9)


@pytest.mark.parametrize("args", [{"workload": "prefix-sum", "rounds": 12, "method": "optimal"},
                                  {"workload": "prefix-sum", "rounds": 12, "method": "sqrt", "participations": 2},
                                  {"workload": "dl", "rounds": 6, "method": "optimal", "graph": "ring:n=6"}])
def test_factorize_matches_the_command_line(cli, args):
    got = netdp.factorize(**args)
    flags = []
    for name, value in args.items():
        flags += ["--" + name.replace("_", "-"), str(value)]
    expected = cli("factorize", *flags)
    assert got.loss == pytest.approx(expected["loss"], rel=1e-12)
    assert got.sensitivity == pytest.approx(expected["sensitivity"], rel=1e-12)
    assert got.certificate.kind == expected["certificate"]["kind"]
    assert got.certificate.converged == expected["certificate"]["converged"]
    c = got.c
    assert c.shape == (args["rounds"], args["rounds"])
    assert np.allclose(np.triu(c, 1), 0.0)
    with pytest.raises(ValueError, match="`method` 'best' is not one of"):
        netdp.factorize(method="best")


@pytest.mark.parametrize("steps", [1, 2])
def test_compare_matches_the_command_line(cli, steps):
    got = netdp.compare("florentine", rounds=5, sigma=1.0, gossip_steps=steps)
    expected = cli("compare", "--graph", "florentine", "--rounds", "5", "--sigma", "1", "--gossip-steps", str(steps))
    assert list(got.index) == [d["distance"] for d in expected["by_distance"]]
    for d in expected["by_distance"]:
        for column, value in d.items():
            if column != "distance":
                assert got.loc[d["distance"], column] == pytest.approx(value, rel=1e-12), column
    assert got.attrs["local_dp"] == pytest.approx(expected["local_dp"], rel=1e-12)
    assert got.attrs["secure_sum_omitted"] == expected["secure_sum_omitted"]
    assert ("secure_sum_mean" in got.columns) == (steps == 1)


def test_a_run_over_the_memory_limit_is_memory_error():
    netdp.set_max_memory("1M")
    try:
        with pytest.raises(MemoryError, match="more than the --max-memory limit of"):
            netdp.factorize(rounds=2000)
    finally:
        netdp.set_max_memory(None)
    assert netdp.factorize(rounds=8).loss > 0


def test_ctrl_c_interrupts_a_long_call_within_a_second(seconds_until_interrupted):
    # about 2.5 s uninterrupted
    elapsed = seconds_until_interrupted(lambda: netdp.account("er:n=300,p=0.05,seed=1,connected=1", rounds=12))
    assert elapsed < 1.3, f"KeyboardInterrupt after {elapsed:.2f} s"
    # The module still works after an interrupted call.
    assert netdp.account("ring:n=5", rounds=3).summary["pairs"] == 20


@pytest.mark.parametrize("call", [
    lambda value: netdp.account("ring:n=6", rounds=value),
    lambda value: netdp.account("ring:n=6", rounds=3, seed=value),
    lambda value: netdp.account("ring:n=6", rounds=3, method="mf", gossip_steps=value),
    lambda value: netdp.factorize(rounds=value),
    lambda value: netdp.factorize(rounds=8, participations=value, separation=4),
])
def test_a_fraction_where_an_integer_is_meant_is_refused_not_truncated(call):
    with pytest.raises(ValueError, match=r"must be a whole number, got 1\.5"):
        call(1.5)
    with pytest.raises(TypeError, match="must be an integer"):
        call("3")


def test_integers_are_taken_from_numpy_and_integral_floats():
    plain = netdp.account("ring:n=6", rounds=3, seed=2).epsilon
    for rounds, seed in [(np.int64(3), np.uint32(2)), (3.0, 2.0), (np.float64(3.0), np.int8(2))]:
        np.testing.assert_array_equal(netdp.account("ring:n=6", rounds=rounds, seed=seed).epsilon, plain)
    assert netdp.factorize(rounds=np.int64(8), participations=np.int32(2)).loss == \
        netdp.factorize(rounds=8, participations=2).loss


def test_a_contribution_count_is_a_whole_number_of_visits():
    for value in [0.5, 1e-300]:
        with pytest.raises(ValueError, match="contributions must be a whole number"):
            netdp.account("karate", method="random-walk", rounds=100, contributions=value)
    for value in ["0.5", "1e-300", "0"]:
        with pytest.raises(ValueError, match=r"a whole number >= 1"):
            netdp.account("karate", method="random-walk", rounds=100, contributions=value)
    as_int = netdp.account("karate", method="random-walk", rounds=100, contributions=3, observers=0)
    as_text = netdp.account("karate", method="random-walk", rounds=100, contributions="3", observers=0)
    np.testing.assert_array_equal(as_int.epsilon, as_text.epsilon)
    # The count is used: one more visit loses more.
    four = netdp.account("karate", method="random-walk", rounds=100, contributions=np.int64(4), observers=0)
    finite = np.isfinite(as_int.epsilon)
    assert np.all(as_int.epsilon[finite] <= four.epsilon[finite])
    assert np.any(as_int.epsilon[finite] < four.epsilon[finite])


def test_a_group_or_coalition_that_leaves_no_pair_is_refused():
    with pytest.raises(ValueError, match=r"the group \{1,2\} and the colluders \{2,6\} share node 2"):
        netdp.account("karate", rounds=3, group=[1, 2], colluders=[2, 6])
    with pytest.raises(ValueError, match=r"the colluders \{0,1,2,3\} are all 4 nodes"):
        netdp.account("ring:n=4", rounds=3, colluders=[0, 1, 2, 3])


def test_mf_participation_is_checked_as_factorize_checks_it():
    message = r"participations k = 2 times separation b = 2 is 4 > rounds T = 3"
    with pytest.raises(ValueError, match=message):
        netdp.account("ring:n=5", method="mf", rounds=3, participations=2, separation=2)
    with pytest.raises(ValueError, match=message):
        netdp.factorize(rounds=3, participations=2, separation=2)


def test_warnings_come_typed_with_their_counts():
    # An effort limit below every observer's view gives each one up: 34 observers, 34 x 33 pairs.
    result = netdp.account("karate", rounds=10, exact_effort=100)
    kinds = {d["kind"]: d["count"] for d in result.diagnostics}
    assert kinds["effort-limit"] == 34
    assert kinds["rank-unresolved"] == 34 * 33
    assert [d["text"] for d in result.diagnostics] == result.warnings
