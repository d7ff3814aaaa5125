"""Matrix-factorization noise correlations, as ``netdp factorize`` computes them (docs/mf.md)."""

from typing import Any, Optional

from . import _netdp
from ._values import integer
from .graphs import GraphLike, as_graph


def factorize(workload: str = "prefix-sum", rounds: int = 16, method: str = "optimal", participations: int = 1,
              separation: int = 0, *, graph: Optional[GraphLike] = None, weights: str = "hamilton",
              initial_power: int = 1, bands: int = 0, lcc: bool = False) -> dict[str, Any]:
    """C minimising sens_Π(C)² · ‖L C⁻¹‖²_F for the prefix-sum workload or the decentralized
    learning one (``workload="dl"``, MF paper Lemma 10, on ``graph``'s W), by ``method``
    (optimal, equal-norm, sign-relaxed, identity, sqrt, antipgd, dmf, banded); ``lcc=True`` keeps
    ``graph``'s largest connected component.

    Returns a dict: c (T × T numpy array, lower triangular), loss, sensitivity,
    sensitivity_exact, trace, certificate (kind, value, lower_bound, global_lower_bound,
    iterations, converged) — the fields of ``netdp factorize --json``.
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
    out = dict(_netdp.factorize(request, core, weights))
    out["certificate"] = dict(out["certificate"])
    return out
