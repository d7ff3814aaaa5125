# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Matrix-factorization noise correlations, as ``netdp factorize`` computes them (docs/reference/mf.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from . import _netdp
from ._values import integer
from .graphs import GraphLike, as_graph


@dataclass(frozen=True)
class Certificate:
    """How far the loss is from the optimum: ``kind`` (a duality gap, ``none`` for a fixed
    baseline), its ``value`` (None when there is none), the ``lower_bound`` on the loss over the
    method's family and the ``global_lower_bound`` over every C, the solver's ``iterations`` and
    whether it ``converged``."""

    kind: str
    value: Optional[float]
    lower_bound: float
    global_lower_bound: float
    iterations: int
    converged: bool


@dataclass(frozen=True)
class Factorization:
    """The fields of ``netdp factorize --json``: ``c`` (T × T, lower triangular), its ``loss``
    sens_Π(C)² · ‖L C⁻¹‖²_F, ``sensitivity`` (exact when ``sensitivity_exact``), ``trace`` and the
    ``certificate``."""

    c: npt.NDArray[np.float64]
    loss: float
    sensitivity: float
    sensitivity_exact: bool
    trace: float
    certificate: Certificate


def factorize(workload: str = "prefix-sum", rounds: int = 16, method: str = "optimal", participations: int = 1,
              separation: int = 0, *, graph: Optional[GraphLike] = None, weights: str = "hamilton",
              initial_power: int = 1, bands: int = 0, lcc: bool = False) -> Factorization:
    """C minimising sens_Π(C)² · ‖L C⁻¹‖²_F for a workload, as ``netdp factorize``.

    Parameters
    ----------
    workload : str
        ``"prefix-sum"``, or ``"dl"``: the decentralized learning workload of ``graph``'s W (MF
        paper, Lemma 10).
    rounds : int
        T.
    method : str
        optimal, equal-norm, sign-relaxed, identity, sqrt, antipgd, dmf or banded.
    participations, separation : int
        k and b of (k, b)-cyclic participation.
    graph, weights, lcc
        The network of ``workload="dl"`` (a Graph, SPEC string or networkx graph), its weighting,
        and whether to keep its largest connected component.
    initial_power, bands : int
        The first power of W in the dl workload; the band count of ``method="banded"``.

    Returns
    -------
    Factorization

    Raises
    ------
    ValueError
        A problem the library refuses, with the command line's message.
    MemoryError
        A problem whose memory estimate exceeds ``netdp.set_max_memory``.

    Examples
    --------
    >>> import netdp
    >>> f = netdp.factorize(rounds=8, method="identity")
    >>> f.c.shape, f.certificate.kind
    ((8, 8), 'none')
    """
    request = _netdp.FactorizeRequest()
    request.workload = workload
    request.rounds = integer("rounds", rounds, minimum=0)
    request.method = method
    request.participations = integer("participations", participations, minimum=0)
    request.separation = integer("separation", separation, minimum=0)
    request.initial_power = integer("initial_power", initial_power, minimum=0)
    request.bands = integer("bands", bands, minimum=0)
    core = as_graph(graph, lcc)._core if graph is not None else None
    out: dict[str, Any] = dict(_netdp.factorize(request, core, weights))
    certificate = Certificate(**dict(out.pop("certificate")))
    return Factorization(certificate=certificate, **out)
