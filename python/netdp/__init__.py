# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""netdp: how much each node of a decentralized learning protocol learns about each other node.

A thin layer over the C++ library that `netdp` (the command line) calls: graphs keep their
labels, accounts take the options of ``netdp account`` by the same names (dashes become
underscores), and results are numpy arrays and pandas frames. See docs/reference/python.md.
"""

import os as _os

# OpenMP threads that wait spin by default and lose to a busy core (docs/reference/performance.md, "Busy
# machines"); the runtime reads the policy once, when it loads with the extension below. A policy
# the user set is kept; one set after import changes nothing.
_os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from . import gdp, plot, rdp  # noqa: E402
from ._netdp import set_max_memory  # noqa: E402
from ._netdp import __version__  # noqa: E402
from ._warnings import InputChangedWarning, NetdpWarning, NumericalWarning, PaperFormulaWarning  # noqa: E402
from .accounting import Account, AccountResult, account, calibrate, compare  # noqa: E402
from .factorization import Certificate, Factorization, factorize  # noqa: E402
from .gossip import gossip_matrix, spectrum  # noqa: E402
from .graphs import Graph, graph  # noqa: E402
from .report import report  # noqa: E402
from .training import train  # noqa: E402

__all__ = ["Account", "AccountResult", "Certificate", "Factorization", "Graph", "InputChangedWarning", "NetdpWarning", "NumericalWarning",
           "PaperFormulaWarning", "__version__", "account", "calibrate", "compare", "factorize", "gdp",
           "gossip_matrix", "graph", "plot", "rdp", "report", "set_max_memory", "spectrum", "train"]
