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
