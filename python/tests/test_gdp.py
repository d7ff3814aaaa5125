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
