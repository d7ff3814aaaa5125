# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Pairwise accounts: every accountant of ``netdp account``, by the same option names."""

from __future__ import annotations

import functools
import numbers
import warnings
from typing import Any, Hashable, Iterator, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _netdp
from ._values import integer
from ._warnings import NetdpWarning, NumericalWarning, PaperFormulaWarning, warn_all
from .graphs import Graph, GraphLike, as_graph, gossip_matrix_of

#: None (every node), one label, or a list of labels.
Labels = Union[None, Hashable, Sequence[Hashable]]

_OPTIONS = {row["name"]: row for row in _netdp.account_options()}


def _label_list(g: Graph, labels: Labels, argument: str = "observers") -> Optional[list[int]]:
    """None, one label or a list of labels → a list of node indices (None: every node); an
    unknown label is a KeyError naming ``argument``."""
    if labels is None:
        return None
    if isinstance(labels, (list, tuple, np.ndarray, range)):
        return [_node(g, label, argument) for label in labels]
    return [_node(g, labels, argument)]


def _node(g: Graph, label: Hashable, argument: str) -> int:
    """The index of ``label`` in ``g``; a KeyError naming ``argument`` when it names no node."""
    try:
        return g.index(label)
    except KeyError as error:
        raise KeyError(f"{argument}: {error.args[0]}") from None


def _option_text(name: str, kind: str, value: Any) -> str:
    """The text of one option's value, after checking its Python type against the option table."""
    if kind == "flag":
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"option {name} takes True or False, got {type(value).__name__} {value!r}")
        return "true" if value else "false"
    if kind in ("count", "integer"):
        return str(integer(name, value, minimum=0 if kind == "count" else None))
    if kind == "real":
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"option {name} takes a number, got {type(value).__name__} {value!r}")
        return repr(float(value))
    if kind == "choice":
        if not isinstance(value, str):
            raise TypeError(f"option {name} takes one of {_OPTIONS[name]['values']}, "
                            f"got {type(value).__name__} {value!r}")
        return value
    # count_or_choice, dimension: a name or a whole number
    if isinstance(value, str):
        return value
    return str(integer(name, value))


def _request(method: str, options: dict[str, Any]) -> _netdp.AccountRequest:
    request = _netdp.AccountRequest()
    request.set("method", _option_text("method", "choice", method))
    for name, value in options.items():
        option = _OPTIONS.get(name)
        if option is None or name == "method":
            raise TypeError(f"account() got an unknown option {name!r}; the options of netdp account are: "
                            + ", ".join(n for n in sorted(_OPTIONS) if n != "method"))
        if option["type"] == "matrix":
            request.correlation = np.asarray(value, dtype=float)
        elif value is not None:
            request.set(name, _option_text(name, option["type"], value))
    return request


def _setting(g: Graph, rounds: int, observers: Labels, targets: Labels, weights: Any, schedule: str, seed: int,
             sensitivity: float, colluders: Labels, group: Labels, alpha: Optional[float]) -> _netdp.Setting:
    setting = _netdp.Setting()
    if isinstance(weights, str):
        setting.weights = weights
    else:
        setting.matrix = gossip_matrix_of(weights, g)
    setting.rounds = integer("rounds", rounds, minimum=0)
    setting.schedule = schedule
    setting.seed = integer("seed", seed, minimum=0)
    setting.sensitivity = float(sensitivity)
    setting.observers = _label_list(g, observers, "observers") or []
    setting.targets = _label_list(g, targets, "targets") or []
    setting.colluders = _label_list(g, colluders, "colluders") or []
    setting.group = _label_list(g, group, "group") or []
    setting.alpha = None if alpha is None else float(alpha)
    if setting.colluders and setting.observers:
        raise ValueError("give observers or colluders, not both")
    return setting


def _warn_about(columns: dict[str, Any], stacklevel: int) -> None:
    """A result's diagnostics as NumericalWarning, and a paper's formula as PaperFormulaWarning;
    ``stacklevel`` counted from this function (2: its caller)."""
    warn_all([d["text"] for d in columns["diagnostics"]], NumericalWarning, stacklevel + 1)
    if not columns["valid_bound"]:
        warn_all([f"{columns['method']}: the values are the paper's formula (bound {columns['bound']}), "
                  "not an upper bound on the observer's view"], PaperFormulaWarning, stacklevel + 1)


def _result(g: Graph, setting: _netdp.Setting, columns: dict[str, Any], sigma: float,
            delta: float) -> AccountResult:
    """The AccountResult of an evaluation, its warnings raised at the line that called the public
    function calling this (account() or Account.evaluate())."""
    _warn_about(columns, stacklevel=4)
    return AccountResult(g, columns, setting, sigma, delta)


class Account:
    """An account built once, then evaluated at any σ and δ: the σ-free structure of a protocol on
    a graph (the library's PairwiseAccount), for sweeps of σ, calibration and streamed rows.

    Parameters
    ----------
    g : netdp.Graph, str or networkx.Graph
        The network: a Graph, a SPEC string (``netdp help specs``) or a networkx graph.
    method : str
        ``"muffliato"``, ``"random-walk"``, ``"linear-system"`` or ``"mf"``.
    rounds : int
        T, the protocol's rounds.
    observers, targets : label, list of labels or None
        The pairs the account reports (None: every node).
    weights : str or matrix
        A weighting's name, or your own gossip matrix W (numpy or scipy.sparse, n × n, rows in
        the graph's node order, its support the graph's edges).
    schedule, seed, sensitivity, colluders, group, alpha, lcc
        As in :func:`account`.
    **method_options
        The options of ``netdp account --method ...`` with dashes as underscores
        (``bound="paper"``, ``contributions="worst"``, ``view="plain"``, ...).

    Raises
    ------
    ValueError
        An option the library refuses, with the command line's message.
    TypeError
        An option of the wrong type, or one ``netdp account`` does not have.

    Examples
    --------
    >>> import netdp
    >>> acc = netdp.Account("hypercube:d=3", rounds=5)
    >>> acc.pair_count
    56
    >>> r = acc.evaluate(sigma=2.0)
    >>> bool(r.summary["epsilon_max"] < acc.evaluate(sigma=1.0).summary["epsilon_max"])
    True
    """

    def __init__(self, g: GraphLike, method: str = "muffliato", rounds: int = 10, observers: Labels = None,
                 targets: Labels = None, *, weights: Any = "hamilton", schedule: str = "fixed", seed: int = 1,
                 sensitivity: float = 1.0, colluders: Labels = None, group: Labels = None,
                 alpha: Optional[float] = None, lcc: bool = False, **method_options: Any) -> None:
        self.graph = as_graph(g, lcc)
        self._setting = _setting(self.graph, rounds, observers, targets, weights, schedule, seed, sensitivity,
                                 colluders, group, alpha)
        self._core = _netdp.Account(self.graph._core, self._setting, _request(method, method_options))

    @property
    def method(self) -> str:
        """The accountant: muffliato, random-walk, linear-system or mf."""
        return self._core.method

    @property
    def pair_count(self) -> int:
        """How many (observer, target) pairs the account holds."""
        return self._core.pair_count

    def evaluate(self, sigma: float, delta: float = 1e-5) -> AccountResult:
        """The account at one noise level.

        Parameters
        ----------
        sigma : float
            The noise per message (finite, > 0).
        delta : float
            The δ of (ε, δ), in (0, 1).

        Returns
        -------
        AccountResult
            The numbers ``netdp account --sigma SIGMA --delta DELTA`` prints. Its diagnostics
            are raised as :class:`NumericalWarning`, a paper's formula as
            :class:`PaperFormulaWarning`.

        Raises
        ------
        ValueError
            A σ that is not finite and > 0, or a δ outside (0, 1).
        TypeError
            A σ or δ that is not a number.
        """
        columns = dict(self._core.evaluate(_real("sigma", sigma), _real("delta", delta)))
        return _result(self.graph, self._setting, columns, sigma, delta)

    def calibrate(self, target_epsilon: float, delta: float = 1e-5,
                  on: Union[str, tuple[Hashable, Hashable]] = "mean") -> dict[str, Any]:
        """The smallest σ whose ``on`` statistic of ε at ``delta`` is at most ``target_epsilon``.

        Parameters
        ----------
        target_epsilon : float
            The ε to meet.
        delta : float
            The δ of (ε, δ).
        on : str or (label, label)
            ``"mean"`` or ``"max"`` over the pairs, ``"pair"`` for an account of one pair, or an
            (observer, target) tuple of labels (an account of that pair is built for it).

        Returns
        -------
        dict
            sigma, achieved_epsilon (re-checked at sigma), closed_form (μ ∝ 1/σ for the Gaussian
            accountants with max or a pair), evaluations, on.

        Raises
        ------
        ValueError
            An unknown statistic, or an account with several (not all) observers or targets.
        KeyError
            A label of ``on`` that names no node.
        """
        target_epsilon, delta = _real("target_epsilon", target_epsilon), _real("delta", delta)
        if isinstance(on, tuple):
            if len(on) != 2:
                raise ValueError(f"on must be 'mean', 'max', 'pair' or an (observer, target) pair, got {on!r}")
            out = dict(self._core.calibrate_pair(_node(self.graph, on[0], "on"), _node(self.graph, on[1], "on"), target_epsilon,
                                                 delta))
            out["on"] = on
            return out
        if not isinstance(on, str):
            raise TypeError(f"on must be 'mean', 'max', 'pair' or an (observer, target) pair, got {on!r}")
        return dict(self._core.calibrate(target_epsilon, delta, on))

    def rows(self, sigma: float, delta: float = 1e-5, chunk: int = 1 << 20) -> Iterator[Any]:
        """The rows at (``sigma``, ``delta``), computed while you read them: an all-pairs account
        of a large graph never has to fit in memory. Leaving the loop early stops the
        computation; the arguments are checked at the call.

        Parameters
        ----------
        sigma, delta : float
            As in :meth:`evaluate`.
        chunk : int
            Rows per DataFrame (the last may have fewer).

        Returns
        -------
        iterator of pandas.DataFrame
            The columns of :meth:`AccountResult.to_pandas`.

        Examples
        --------
        >>> import netdp
        >>> [len(c) for c in netdp.Account("ring:n=5", rounds=3).rows(1.0, chunk=8)]
        [8, 8, 4]
        """
        stream = self._core.rows(_real("sigma", sigma), _real("delta", delta), integer("chunk", chunk, minimum=1))
        return (_frame(self.graph, dict(columns), sigma, delta, self.method) for columns in stream)

    def pair(self, observer: Hashable, target: Hashable, sigma: float, delta: float = 1e-5) -> dict[str, Any]:
        """The row of one pair at (``sigma``, ``delta``).

        Parameters
        ----------
        observer, target : label
            Two distinct nodes of the account's pairs.
        sigma, delta : float
            As in :meth:`evaluate`.

        Returns
        -------
        dict
            The command line's field names (observer, target, distance, mu, epsilon,
            certificate, ...), with method and bound.

        Raises
        ------
        KeyError
            A label that names no node.
        ValueError
            Not a pair of the account.
        """
        columns = dict(self._core.pair(_node(self.graph, observer, "observer"), _node(self.graph, target, "target"),
                                       _real("sigma", sigma), _real("delta", delta)))
        _warn_about(columns, stacklevel=3)
        row: dict[str, Any] = _frame(self.graph, columns, sigma, delta, columns["method"]).iloc[0].to_dict()
        row.update({"method": columns["method"], "bound": columns["bound"]})
        return row

    @functools.cached_property
    def certificate(self) -> npt.NDArray[Any]:
        """What each value is, per (observer, target), as in :attr:`AccountResult.certificate`:
        exact, upper-bound, cap-in-span, cap-undetermined or paper-formula. The kinds do not
        depend on σ or δ (they come from the σ-free structure)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NetdpWarning)
            return self.evaluate(1.0).certificate

    def __repr__(self) -> str:
        return f"netdp.Account({self.method}, {self.pair_count} pairs, graph of {self.graph.num_nodes} nodes)"


def _real(name: str, value: Any) -> float:
    """``value`` as a float, for the argument ``name``: a real number (not a bool), or a TypeError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    return float(value)


def account(g: GraphLike, method: str = "muffliato", rounds: int = 10, sigma: float = 1.0, delta: float = 1e-5,
            observers: Labels = None, targets: Labels = None, *, weights: Any = "hamilton", schedule: str = "fixed",
            seed: int = 1, sensitivity: float = 1.0, colluders: Labels = None, group: Labels = None,
            alpha: Optional[float] = None, lcc: bool = False, **method_options: Any) -> AccountResult:
    """The pairwise account of a protocol on ``g``: :class:`Account` built for one (σ, δ), the
    numbers of ``netdp account``.

    Parameters
    ----------
    g : netdp.Graph, str or networkx.Graph
        The network: a Graph, a SPEC string (``netdp help specs``) or a networkx graph.
    method : str
        ``"muffliato"``, ``"random-walk"``, ``"linear-system"`` or ``"mf"``.
    rounds : int
        T, the protocol's rounds (the random walk's steps).
    sigma, delta : float
        The noise per message and the δ of (ε, δ).
    observers, targets : label, list of labels or None
        The pairs reported (None: every node).
    weights : str or matrix
        A weighting's name, or your own gossip matrix W (numpy or scipy.sparse, n × n, rows in
        the graph's node order, its support the graph's edges).
    schedule, seed, sensitivity
        As ``--schedule``, ``--seed`` and ``--sensitivity``.
    colluders : list of labels, optional
        A coalition observing together (instead of ``observers``).
    group : list of labels, optional
        A group of targets (Muffliato).
    alpha : float, optional
        Report Rényi ε at this order too.
    lcc : bool
        Keep the graph's largest connected component.
    **method_options
        The options of ``netdp account --method ...`` with dashes as underscores
        (``bound="paper"``, ``contributions="worst"``, ``view="plain"``, ``trust="ldp"``,
        ``correlation=C``, ...): the table in docs/reference/python.md.

    Returns
    -------
    AccountResult

    Raises
    ------
    ValueError
        A value or combination the accountant refuses, with the command line's message.
    TypeError
        An option of the wrong type, or one ``netdp account`` does not have.
    KeyError
        A label that names no node, with the argument it was given in.
    MemoryError
        A call whose memory estimate exceeds ``netdp.set_max_memory``.

    Examples
    --------
    >>> import netdp
    >>> r = netdp.account("ring:n=6", rounds=4, sigma=2.0)
    >>> r.summary["pairs"], r.bound, r.epsilon.shape
    (30, 'exact-joint-view', (6, 6))
    """
    g = as_graph(g, lcc)
    setting = _setting(g, rounds, observers, targets, weights, schedule, seed, sensitivity, colluders, group, alpha)
    columns = dict(_netdp.account(g._core, setting, _request(method, method_options), _real("sigma", sigma),
                                  _real("delta", delta)))
    return _result(g, setting, columns, sigma, delta)


def calibrate(g: GraphLike, target_epsilon: float, method: str = "muffliato", rounds: int = 10,
              delta: float = 1e-5, on: str = "mean", observers: Labels = None, targets: Labels = None, *,
              weights: Any = "hamilton", schedule: str = "fixed", seed: int = 1, sensitivity: float = 1.0,
              colluders: Labels = None, group: Labels = None, alpha: Optional[float] = None, lcc: bool = False,
              **method_options: Any) -> dict[str, Any]:
    """The smallest σ whose ``on`` statistic of ε is at most ``target_epsilon``: ``netdp account
    --target-epsilon E --calibrate-on ON``. To calibrate several targets on one account, build
    an :class:`Account` and call its ``calibrate``.

    Parameters
    ----------
    g, method, rounds, delta, weights, schedule, seed, sensitivity, colluders, group, alpha, lcc
        As in :func:`account`.
    target_epsilon : float
        The ε to meet at ``delta``.
    on : str
        ``"mean"`` or ``"max"`` over the pairs, or ``"pair"`` (one observer and one target).
    observers, targets : label or None
        None (every pair), or one label each.

    Returns
    -------
    dict
        sigma, achieved_epsilon (re-checked at sigma), closed_form (μ ∝ 1/σ for the Gaussian
        accountants with max or pair), evaluations, on.

    Raises
    ------
    ValueError, TypeError, KeyError, MemoryError
        As :func:`account`.

    Examples
    --------
    >>> import netdp
    >>> c = netdp.calibrate("ring:n=6", 1.0, rounds=4, on="max")
    >>> c["closed_form"], c["achieved_epsilon"] <= 1.0
    (True, True)
    """
    g = as_graph(g, lcc)
    setting = _setting(g, rounds, observers, targets, weights, schedule, seed, sensitivity, colluders, group, alpha)
    return dict(_netdp.calibrate(g._core, setting, _request(method, method_options),
                                 _real("target_epsilon", target_epsilon), _real("delta", delta), on))


def compare(g: GraphLike, rounds: int = 10, sigma: float = 1.0, gossip_steps: int = 1, alpha: float = 2.0, *,
            weights: str = "hamilton", variant: str = "propagated", secure_sum: bool = True,
            lcc: bool = False) -> Any:
    """The MF paper's Figure 2 table, ``netdp compare``: Rényi ε at ``alpha`` per hop distance of
    the MF accountant (PNDP), Muffliato's paper formula (``muffliato_*``, NOT a bound on the
    view: labelled ``paper-formula``), Muffliato's exact joint view per release
    (``muffliato_exact_*``) and Koskela–Kulkarni's secure summation (``secure_sum_*``, K = 1).

    Parameters
    ----------
    g, weights, lcc
        As in :func:`account`.
    rounds, gossip_steps : int
        T and K (gossip steps per gradient).
    sigma, alpha : float
        The noise and the Rényi order.
    variant : str
        Muffliato's ``"propagated"`` or ``"per-step"`` view.
    secure_sum : bool
        Add Koskela–Kulkarni's secure-summation columns.

    Returns
    -------
    pandas.DataFrame
        Indexed by distance, with the command's column names; ``.attrs`` holds local_dp,
        central_dp (the baselines at the same noise), secure_sum_omitted and muffliato_bound.

    Examples
    --------
    >>> import netdp
    >>> table = netdp.compare("florentine", rounds=5)
    >>> table.attrs["muffliato_bound"], list(table.index)[:3]
    ('paper-formula', [1, 2, 3])
    """
    import pandas as pd

    g = as_graph(g, lcc)
    out = _netdp.compare(g._core, weights, integer("rounds", rounds, minimum=0),
                         integer("gossip_steps", gossip_steps, minimum=0), float(sigma), float(alpha), variant,
                         bool(secure_sum))
    frame = pd.DataFrame([dict(row) for row in out["by_distance"]]).set_index("distance")
    frame.attrs.update({"local_dp": out["local_dp"], "central_dp": out["central_dp"],
                        "secure_sum_omitted": out["secure_sum_omitted"], "muffliato_bound": "paper-formula",
                        "alpha": alpha, "sigma": sigma, "rounds": rounds, "gossip_steps": gossip_steps})
    return frame


def _label_array(labels: Sequence[Any]) -> npt.NDArray[Any]:
    """Node labels as an array to index by node: integers when every label is one, else objects
    (names, tuples: any hashable networkx node, kept as it is)."""
    if all(isinstance(label, (int, np.integer)) and not isinstance(label, bool) for label in labels):
        return np.asarray(labels, dtype=np.int64)
    out = np.empty(len(labels), dtype=object)
    for i, label in enumerate(labels):
        out[i] = label
    return out


def _frame(g: Graph, rows: dict[str, Any], sigma: float, delta: float, method: str,
           bound: Optional[str] = None) -> Any:
    """Rows (numpy columns, certificates as names or as codes with their names) as a DataFrame
    with the command line's field names, nodes named by label."""
    import pandas as pd

    certificate = rows.get("certificate")
    if certificate is None:
        certificate = np.asarray(rows["certificate_names"], dtype=object)[rows["certificate_code"]]
    labels = _label_array(g.labels)
    frame = pd.DataFrame({
        "observer": labels[rows["observer"]],
        "target": labels[rows["target"]],
        "distance": rows["distance"],
        "alpha": rows["alpha"],
        "rdp_epsilon": rows["rdp_epsilon"],
        "uncapped_rdp_epsilon": rows["uncapped_rdp_epsilon"],
        "mu": rows["mu"],
        "epsilon": rows["epsilon"],
        "capped": np.asarray(rows["capped"]).astype(bool),
        "certificate": certificate,
        "mu_lower": rows["mu_lower"],
    })
    frame.attrs.update({"method": method, "bound": bound or rows.get("bound"), "sigma": sigma, "delta": delta})
    return frame


class AccountResult:
    """The rows of an account at one (σ, δ) and the views of them users want.

    Attributes
    ----------
    mu, epsilon : numpy.ndarray
        One row per observer and one column per target, in the order of ``observers`` and
        ``targets`` (labels); NaN where there is no pair (an observer with itself) and, for
        ``mu``, for the random walk (an RDP bound).
    certificate : numpy.ndarray
        What each value is: exact, upper-bound, cap-in-span, cap-undetermined or paper-formula.
    rows : dict of numpy.ndarray
        The columns of every pair (observer and target as node indices).
    observers, targets : list
        The labels of the matrices' rows and columns.
    method, bound, valid_bound, sigma, delta
        The accountant, what its numbers are (``paper-formula`` is not a bound), and the noise.
    warnings, diagnostics : list
        The account's diagnostics, as texts and typed (kind, count, text).
    summary : dict
        ``netdp account --json``'s summary.

    Examples
    --------
    >>> import netdp
    >>> r = netdp.account("ring:n=4", rounds=3)
    >>> r.to_pandas().shape, r.by_distance().index.tolist()
    ((12, 11), [1, 2])
    """

    def __init__(self, g: Graph, columns: dict[str, Any], setting: _netdp.Setting, sigma: float,
                 delta: float) -> None:
        self.graph = g
        #: where the account ran (weights or matrix, rounds, schedule, seed, the pairs it reports)
        self.setting = setting
        self.sigma = sigma
        self.delta = delta
        self.method = columns.pop("method")
        self.bound = columns.pop("bound")
        self.valid_bound = columns.pop("valid_bound")
        self.warnings = list(columns.pop("warnings"))
        #: the warnings typed: dicts of ``kind`` (e.g. "noise-rank-deficient", "rank-unresolved"),
        #: ``count`` (the pairs, views or entries it concerns) and ``text`` (as in ``warnings``)
        self.diagnostics = list(columns.pop("diagnostics"))
        self._summary = columns.pop("summary")
        names = np.asarray(columns.pop("certificate_names"), dtype=object)
        #: the chance that a value certified by exact arithmetic modulo random primes is wrong
        self.certificate_failure_probability = columns.pop("certificate_failure_probability")
        self.rows = dict(columns)
        self.rows["capped"] = self.rows["capped"].astype(bool)
        # What each value is: exact, upper-bound, cap-in-span, cap-undetermined or paper-formula.
        self.rows["certificate"] = names[self.rows.pop("certificate_code")]
        # The matrices' rows and columns: the selected nodes (none selected: every node; a
        # coalition: the observer rows the account has).
        coalition = list(setting.colluders)
        observers = list(setting.observers)
        self._observer_nodes = list(np.unique(self.rows["observer"])) if coalition or not observers else observers
        self._target_nodes = list(setting.targets) or list(range(g.num_nodes))
        self.colluders = [g.labels[v] for v in coalition]

    @property
    def observers(self) -> list[Any]:
        return [self.graph.labels[v] for v in self._observer_nodes]

    @property
    def targets(self) -> list[Any]:
        return [self.graph.labels[v] for v in self._target_nodes]

    def _matrix(self, field: str, empty: Any = np.nan, dtype: Any = float) -> npt.NDArray[Any]:
        """One row per observer, one column per target, filled from the rows (vectorized: an
        all-pairs account of 2048 nodes has 4.2 M rows); ``empty`` where there is no pair."""
        n = self.graph.num_nodes
        row_of = np.full(n, -1, dtype=np.int64)
        row_of[np.asarray(self._observer_nodes, dtype=np.int64)] = np.arange(len(self._observer_nodes))
        column_of = np.full(n, -1, dtype=np.int64)
        column_of[np.asarray(self._target_nodes, dtype=np.int64)] = np.arange(len(self._target_nodes))
        out = np.full((len(self._observer_nodes), len(self._target_nodes)), empty, dtype=dtype)
        out[row_of[self.rows["observer"]], column_of[self.rows["target"]]] = self.rows[field]
        return out

    @functools.cached_property
    def mu(self) -> npt.NDArray[np.float64]:
        """μ-GDP per (observer, target); NaN for the random walk (an RDP bound) and off-pairs."""
        return self._matrix("mu")

    @functools.cached_property
    def certificate(self) -> npt.NDArray[Any]:
        """What each value is, per (observer, target): "exact", "upper-bound", "cap-in-span",
        "cap-undetermined" or "paper-formula" (docs/explanation/certificates.md); None off-pairs."""
        return self._matrix("certificate", empty=None, dtype=object)

    @functools.cached_property
    def epsilon(self) -> npt.NDArray[np.float64]:
        """ε at δ per (observer, target), rounded up."""
        return self._matrix("epsilon")

    def to_pandas(self) -> Any:
        """One row per pair, with the command line's field names (observer, target, distance,
        alpha, rdp_epsilon, uncapped_rdp_epsilon, mu, epsilon, capped, certificate, mu_lower);
        nodes named by label. ``.attrs`` holds method, bound, sigma and delta."""
        return _frame(self.graph, self.rows, self.sigma, self.delta, self.method, self.bound)

    def epsilon_frame(self) -> Any:
        """ε as a pandas DataFrame: one row per observer, one column per target, indexed by label
        (NaN where there is no pair, as an observer with itself)."""
        import pandas as pd

        frame = pd.DataFrame(self.epsilon, index=pd.Index(self.observers, name="observer"),
                             columns=pd.Index(self.targets, name="target"))
        frame.attrs.update({"method": self.method, "bound": self.bound, "sigma": self.sigma, "delta": self.delta})
        return frame

    def to_xarray(self) -> Any:
        """ε, μ and the certificate kinds as an xarray Dataset over (observer, target) labels
        (needs xarray: Debian's python3-xarray)."""
        import xarray as xr

        coords = {"observer": self.observers, "target": self.targets}
        dims = ("observer", "target")
        return xr.Dataset({"epsilon": (dims, self.epsilon), "mu": (dims, self.mu),
                           "certificate": (dims, self.certificate)}, coords=coords,
                          attrs={"method": self.method, "bound": self.bound, "sigma": self.sigma,
                                 "delta": self.delta})

    def by_distance(self) -> Any:
        """The summary's table by hop distance (pairs, epsilon_min/_mean/_max, mu_min/_mean/_max)
        as a DataFrame indexed by distance."""
        import pandas as pd

        return pd.DataFrame(self._summary["by_distance"]).set_index("distance")

    @property
    def summary(self) -> dict[str, Any]:
        """The summary ``netdp account --json`` writes, with its field names (the library's, not
        recomputed here): pairs, epsilon_min / _mean / _max, epsilon_median / _p90 / _p99, mu_max,
        capped_pairs, condition_failed_pairs, certificates (pairs per kind), by_distance; plus
        method, bound, valid_bound, certificate_failure_probability and warnings."""
        out = dict(self._summary)
        out.update({"method": self.method, "bound": self.bound, "valid_bound": self.valid_bound,
                    "certificate_failure_probability": self.certificate_failure_probability,
                    "warnings": self.warnings})
        return out

    def __repr__(self) -> str:
        return (f"netdp.AccountResult({self.method}, {self.rows['epsilon'].size} pairs, bound {self.bound}, "
                f"sigma {self.sigma}, delta {self.delta})")
