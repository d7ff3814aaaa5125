# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Figures of the papers from netdp results (matplotlib). Each function returns a Figure and
never calls ``show()``; pass ``ax`` to draw into an existing Axes."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np

if TYPE_CHECKING:
    from .accounting import AccountResult


def _axes(ax: Any, figsize: tuple[float, float] = (6.0, 4.0)) -> tuple[Any, Any]:
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=figsize)
    return fig, ax


def epsilon_by_distance(result: AccountResult, ax: Any = None, field: str = "epsilon") -> Any:
    """Box plot of every pair's ε (or μ) by hop distance between observer and target (the
    papers' ε-vs-distance figures, e.g. the MF paper's Figure 2).

    Parameters
    ----------
    result : AccountResult
    ax : matplotlib Axes, optional
        Where to draw (default: a new figure).
    field : str
        ``"epsilon"`` or ``"mu"``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = _axes(ax)
    distance = result.rows["distance"]
    values = result.rows[field]
    levels = sorted(d for d in set(distance.tolist()) if d >= 0)
    ax.boxplot([values[distance == d] for d in levels], labels=[str(d) for d in levels])
    ax.set_xlabel("hop distance between observer and target")
    ax.set_ylabel(f"{field} per pair")
    ax.set_title(f"{result.method} ({result.bound}), σ = {result.sigma:g}, δ = {result.delta:g}")
    return fig


def pairwise_heatmap(result: AccountResult, ax: Any = None, field: str = "epsilon") -> Any:
    """The observer × target matrix of ε (or μ); off-pairs blank.

    Parameters
    ----------
    result : AccountResult
    ax : matplotlib Axes, optional
    field : str
        ``"epsilon"`` or ``"mu"``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = _axes(ax, figsize=(6.0, 5.0))
    matrix = result.epsilon if field == "epsilon" else result.mu
    image = ax.imshow(matrix, cmap="viridis", aspect="auto")  # NaN (off-pairs) is left blank
    fig.colorbar(image, ax=ax, label=field)
    if len(result.targets) <= 40:
        ax.set_xticks(range(len(result.targets)), [str(t) for t in result.targets], rotation=90, fontsize=7)
    if len(result.observers) <= 40:
        ax.set_yticks(range(len(result.observers)), [str(o) for o in result.observers], fontsize=7)
    ax.set_xlabel("target")
    ax.set_ylabel("observer")
    ax.set_title(f"{result.method}: pairwise {field}")
    return fig


def observer_graph(result: AccountResult, observer: Any, ax: Any = None, layout: Optional[dict[Any, Any]] = None,
                   field: str = "epsilon") -> Any:
    """The graph drawn around one observer, each node coloured by what the observer learns about
    it (Muffliato's Figure 1).

    Parameters
    ----------
    result : AccountResult
    observer : label
        An observer of ``result``.
    ax : matplotlib Axes, optional
    layout : dict, optional
        node label → (x, y); default a spring layout (seed 1).
    field : str
        ``"epsilon"`` or ``"mu"``.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    KeyError
        ``observer`` is not an observer of ``result``.
    """
    import networkx as nx

    fig, ax = _axes(ax, figsize=(6.0, 6.0))
    g = result.graph.to_networkx()
    frame = result.to_pandas()
    mine = frame[frame["observer"] == observer]
    if mine.empty:
        raise KeyError(f"{observer!r} is not an observer of this result")
    value = dict(zip(mine["target"], mine[field]))
    nodes = list(g.nodes())
    colours = [value.get(v, np.nan) for v in nodes]
    pos = layout if layout is not None else nx.spring_layout(g, seed=1)
    nx.draw_networkx_edges(g, pos, ax=ax, alpha=0.3)
    drawn = nx.draw_networkx_nodes(g, pos, ax=ax, nodelist=[v for v in nodes if v != observer],
                                   node_color=[c for v, c in zip(nodes, colours) if v != observer],
                                   cmap="viridis", node_size=80)
    nx.draw_networkx_nodes(g, pos, ax=ax, nodelist=[observer], node_color="red", node_shape="*", node_size=250)
    fig.colorbar(drawn, ax=ax, label=f"{field} of each node seen by {observer}")
    ax.set_axis_off()
    ax.set_title(f"{result.method}: what {observer} learns")
    return fig


def training_curves(metrics: Union[Any, str, os.PathLike[str]], ax: Any = None,
                    columns: Sequence[str] = ("test_accuracy", "test_loss")) -> Any:
    """Metrics of ``netdp train`` by round.

    Parameters
    ----------
    metrics : pandas.DataFrame or path
        The metrics of :func:`netdp.train`, or a run folder of ``netdp train --out`` or its
        metrics.csv.
    ax : matplotlib Axes, optional
    columns : sequence of str
        The metrics to draw, each that is present.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        None of ``columns`` is a column of the metrics.
    """
    import pandas as pd

    if isinstance(metrics, (str, os.PathLike)):
        path = os.fspath(metrics)
        metrics = pd.read_csv(os.path.join(path, "metrics.csv") if os.path.isdir(path) else path)
    fig, ax = _axes(ax)
    drawn = [c for c in columns if c in metrics.columns]
    if not drawn:
        raise ValueError(f"none of {list(columns)} is a column of the metrics ({list(metrics.columns)})")
    for column in drawn:
        ax.plot(metrics["round"], metrics[column], marker="o", label=column)
    ax.set_xlabel("round")
    ax.legend()
    return fig
