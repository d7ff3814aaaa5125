"""netdp: how much each node of a decentralized learning protocol learns about each other node.

A thin layer over the C++ library that `netdp` (the command line) calls: graphs keep their
labels, accounts take the options of ``netdp account`` by the same names (dashes become
underscores), and results are numpy arrays and pandas frames. See docs/python.md.
"""

from . import gdp, plot, rdp
from ._netdp import set_max_memory
from .accounting import AccountResult, account, calibrate, compare
from .factorization import factorize
from .gossip import gossip_matrix, spectrum
from .graphs import Graph, graph
from .training import train

__all__ = ["AccountResult", "Graph", "account", "calibrate", "compare", "factorize", "gdp", "gossip_matrix", "graph", "plot", "rdp", "set_max_memory", "spectrum", "train"]
