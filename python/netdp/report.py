# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The HTML report of ``netdp report``, from Python's results or the command line's files."""

from __future__ import annotations

import json
import math
import os
from typing import Any, Iterable, Optional, Union

import numpy as np

from . import _netdp
from .accounting import AccountResult

Result = Union[str, "os.PathLike[str]", AccountResult, Any]


def _plain(value: Any) -> Any:
    """``value`` as JSON can hold it: numpy scalars and arrays as Python's, NaN and ±inf as None."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _account_document(result: AccountResult) -> dict[str, Any]:
    """``netdp account --json``'s document for an AccountResult (the fields the report reads)."""
    rows = result.rows
    distance = np.asarray(rows["distance"])
    pairs = [{"observer": int(o), "target": int(t), "distance": (int(d) if d >= 0 else None), "epsilon": float(e),
              "certificate": str(c)}
             for o, t, d, e, c in zip(rows["observer"], rows["target"], distance, rows["epsilon"], rows["certificate"])]
    summary = dict(result.summary)
    summary.update({"sigma": result.sigma, "delta": result.delta, "colluders": result.colluders,
                    "parameters": {"rounds": result.setting.rounds}})
    return {"pairs": pairs, "summary": _plain(summary)}


def _compare_document(table: Any) -> dict[str, Any]:
    """``netdp compare --json``'s document for the DataFrame of :func:`netdp.compare`."""
    attrs = table.attrs
    document: dict[str, Any] = _plain({"by_distance": table.reset_index().to_dict("records"), "local_dp": attrs["local_dp"],
                   "central_dp": attrs["central_dp"], "muffliato_bound": attrs["muffliato_bound"],
                   "sigma": attrs["sigma"], "alpha": attrs["alpha"], "rounds": attrs["rounds"],
                   "gossip_steps": attrs["gossip_steps"], "warnings": []})
    return document


def _training_document(metrics: Any, summary: dict[str, Any]) -> dict[str, Any]:
    """A training run's summary.json with its metrics, for the (metrics, summary) of :func:`netdp.train`."""
    document = {k: v for k, v in summary.items() if k != "config"}
    document.setdefault("netdp_version", _netdp.__version__)
    document["metrics"] = metrics.to_dict("records")
    plain: dict[str, Any] = _plain(document)
    return plain


def _is_compare_table(item: Any) -> bool:
    return hasattr(item, "attrs") and hasattr(item, "reset_index") and "muffliato_bound" in getattr(item, "attrs", {})


def report(results: Union[Result, Iterable[Result]], path: Union[str, "os.PathLike[str]"],
           title: str = "netdp report") -> dict[str, Any]:
    """Writes the HTML report of ``netdp report``: one file that opens offline, with ε by distance,
    the CDF of pairwise ε, the ε heatmap, the graph coloured by ε from an observer, the certificate
    kinds, audits and training curves (docs/reference/report.md).

    Parameters
    ----------
    results
        One or a list of: :class:`AccountResult` (from :func:`netdp.account` or
        :meth:`Account.evaluate`), the DataFrame of :func:`netdp.compare`, the ``(metrics,
        summary)`` pair of :func:`netdp.train`, or the path of a file the command line wrote
        (``account``/``compare``/``audit --json``) or of a ``train --out`` folder. The first
        AccountResult's graph is the one the report describes and draws.
    path
        The HTML file, written whole or not at all.
    title
        The page's title.

    Returns
    -------
    dict
        ``path``, and ``notes``: what the report left out and why.

    Raises
    ------
    ValueError
        An input that is missing, empty, truncated, or not an output of netdp, naming it.

    Examples
    --------
    >>> import netdp, tempfile, os
    >>> r = netdp.account("karate", rounds=10)
    >>> out = netdp.report(r, os.path.join(tempfile.mkdtemp(), "karate.html"))
    >>> os.path.getsize(out["path"]) > 100_000
    True
    """
    if isinstance(results, (str, os.PathLike, AccountResult, tuple)) or _is_compare_table(results):
        results = [results]
    inputs: list[tuple[str, Optional[str]]] = []
    first: Optional[AccountResult] = None
    for number, item in enumerate(results, start=1):
        if isinstance(item, (str, os.PathLike)):
            inputs.append((os.fspath(item), None))
            continue
        if isinstance(item, AccountResult):
            first = first or item
            document, kind = _account_document(item), "account"
        elif _is_compare_table(item):
            document, kind = _compare_document(item), "compare"
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
            document, kind = _training_document(*item), "train"
        else:
            raise TypeError(f"results[{number - 1}]: a report shows AccountResult, the DataFrame of netdp.compare, "
                            f"the (metrics, summary) of netdp.train, or a path; got {type(item).__name__}")
        inputs.append((f"{kind} {number} (Python)", json.dumps(document, allow_nan=False)))
    graph_core = first.graph._core if first is not None else None
    setting = first.setting if first is not None else None
    out = _netdp.report(inputs, os.fspath(path), title, graph_core,
                        setting.weights if setting is not None else "hamilton",
                        setting.matrix if setting is not None else None,
                        repr(first.graph) if first is not None else "")
    return dict(out)
