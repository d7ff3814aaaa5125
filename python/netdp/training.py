# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The decentralized training simulator, as ``netdp train`` runs it."""

import os
from typing import Any, Optional, Union

from . import _netdp


def _flatten(config: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """{"algorithm": {"rounds": 20}} or {"algorithm.rounds": 20} → {"algorithm.rounds": "20"}."""
    flat: dict[str, str] = {}
    for key, value in config.items():
        key = prefix + str(key).replace("__", ".")
        if isinstance(value, dict):
            flat.update(_flatten(value, key + "."))
        elif isinstance(value, bool):
            flat[key] = "true" if value else "false"
        else:
            flat[key] = repr(float(value)) if isinstance(value, float) else str(value)
    return flat


def train(config: Union[str, os.PathLike[str], dict[str, Any], None] = None,
          **overrides: Any) -> tuple[Any, dict[str, Any]]:
    """Runs ``netdp train`` on ``config``: the path of a TOML file (its relative paths from its
    folder), a dict ({"algorithm": {"rounds": 20}} or {"algorithm.rounds": 20}), or None (the
    schema's defaults). ``overrides`` are ``--set`` keys, with ``__`` for the dot
    (``algorithm__rounds=30``) or passed as ``**{"algorithm.rounds": 30}``.

    Returns
    -------
    metrics : pandas.DataFrame
        metrics.csv's columns, one row per evaluation.
    summary : dict
        summary.json's fields (algorithm, sigma, epsilon, delta, accountant, valid_bound,
        target_epsilon, final_test_loss, final_test_accuracy, warnings, config).

    Raises
    ------
    ValueError
        A key or value the configuration schema refuses (docs/reference/learn.md), with its message.
    FileNotFoundError
        A configuration or data file that cannot be opened.

    Examples
    --------
    >>> import netdp
    >>> metrics, summary = netdp.train(algorithm__rounds=3, data__examples=200)
    >>> summary["algorithm"], "test_accuracy" in metrics.columns
    ('dp-d-sgd', True)
    """
    import pandas as pd

    path: Optional[str] = None
    given: dict[str, str] = {}
    if isinstance(config, (str, os.PathLike)):
        path = os.fspath(config)
    elif isinstance(config, dict):
        given = _flatten(config)
    elif config is not None:
        raise TypeError(f"config must be a path, a dict or None, got {type(config).__name__}")
    out = _netdp.train(path, given, _flatten(overrides))
    return pd.DataFrame(dict(out["metrics"])), dict(out["summary"])
