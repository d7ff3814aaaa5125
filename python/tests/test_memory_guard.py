# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Sizes that come from the arguments are checked against netdp.set_max_memory before anything
proportional to them is allocated: the call raises MemoryError naming the input and the estimate,
at once, instead of taking gigabytes."""

import time

import pytest

import netdp


@pytest.fixture
def limit_300m():
    netdp.set_max_memory("300M")
    try:
        yield
    finally:
        netdp.set_max_memory(None)


def test_ten_million_rounds_of_the_joint_view_are_refused_at_once(limit_300m):
    start = time.monotonic()
    with pytest.raises(MemoryError) as refusal:
        netdp.account("karate", rounds=10**7)
    message = str(refusal.value)
    assert "the Muffliato joint-view accountant needs about" in message
    assert "T = 10000000 rounds" in message
    assert "more than the --max-memory limit of 300 MB" in message
    assert time.monotonic() - start < 10


def test_a_time_varying_schedule_is_estimated_before_it_is_drawn(limit_300m):
    with pytest.raises(MemoryError, match=r"the gossip schedule 'pairwise' over T = 1000000 rounds needs about"):
        netdp.account("karate", rounds=10**6, schedule="pairwise")


def test_gradient_steps_are_named_in_the_refusal(limit_300m):
    with pytest.raises(MemoryError, match=r"T = 4294967295 from `gradient_steps` 4294967295"):
        netdp.account("karate", rounds=1, gradient_steps=4294967295)


def test_small_calls_still_run_under_the_limit(limit_300m):
    assert netdp.account("karate", rounds=5).by_distance() is not None
