# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The GDP conversions against their closed form (Dong, Roth & Su, Corollary 2.13)."""

import numpy as np
import pytest
from scipy.stats import norm

import netdp


@pytest.mark.parametrize("mu", [0.1, 0.5, 1.0, 2.0, 5.0])
def test_epsilon_is_the_root_of_the_delta_curve_rounded_up(mu):
    delta = 1e-5
    eps = netdp.gdp.epsilon(mu, delta)
    closed = norm.cdf(-eps / mu + mu / 2) - np.exp(eps) * norm.cdf(-eps / mu - mu / 2)
    assert closed <= delta * (1 + 1e-9)
    assert closed == pytest.approx(delta, rel=1e-6)
    assert netdp.gdp.delta(mu, eps) == pytest.approx(delta, rel=1e-6)
    assert netdp.gdp.mu_for(eps, delta) == pytest.approx(mu, rel=1e-6)


def test_arrays_are_converted_element_by_element():
    mus = np.array([0.5, 1.0, 2.0])
    assert np.allclose(netdp.gdp.epsilon(mus, 1e-5), [netdp.gdp.epsilon(m, 1e-5) for m in mus])


def test_rdp_conversions_agree_with_the_command_line(cli):
    # `netdp dp --rdp` refines the order continuously on the Gaussian's curve; a tabulated curve
    # is converted on its grid only, so it is never below the command's ε and close to it.
    expected = cli("dp", "--mu", "1", "--delta", "1e-5", "--rdp")["rdp"]
    orders = netdp.rdp.default_orders()
    curve = [netdp.rdp.gaussian(a, 1.0) for a in orders]
    assert curve[0] == pytest.approx(orders[0] / 2)
    for method in ("improved", "mironov"):
        eps, alpha = netdp.rdp.to_dp(orders, curve, 1e-5, method=method)
        assert expected[method]["epsilon"] - 1e-12 <= eps <= 1.02 * expected[method]["epsilon"]
        assert alpha in orders
    assert netdp.rdp.to_dp(orders, curve, 1e-5)[0] >= netdp.gdp.epsilon(1.0, 1e-5)
