# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: the netdp binary of the same build (NETDP_BINARY, set by ctest)."""

import json
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    """Runs `netdp ARGS --json` and returns the parsed JSON."""
    binary = os.environ.get("NETDP_BINARY")
    if not binary or not os.access(binary, os.X_OK):
        pytest.fail("NETDP_BINARY must name the netdp binary of this build (ctest sets it)")

    def run(*args):
        done = subprocess.run([binary, *args, "--json", "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run


@pytest.fixture
def seconds_until_interrupted():
    """Runs ``call()`` with Ctrl-C (KeyboardInterrupt in the main thread) sent after ``after``
    seconds, checks that the call raised it, and returns how long the call took in all."""
    import _thread
    import threading
    import time

    def run(call, after=0.3):
        timer = threading.Timer(after, _thread.interrupt_main)
        start = time.monotonic()
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                call()
        finally:
            timer.cancel()
        return time.monotonic() - start

    return run
