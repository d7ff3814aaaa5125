# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The categories of netdp's warnings, so that ``-W error::netdp.NumericalWarning`` and pytest's
warning filters can single them out. Each is a UserWarning."""

import warnings
from typing import Iterable


class NetdpWarning(UserWarning):
    """The base of every warning netdp raises."""


class InputChangedWarning(NetdpWarning):
    """A reader or converter changed its input: a self-loop dropped, arcs symmetrized, parallel
    edges merged, edge weights not kept or not used."""


class NumericalWarning(NetdpWarning):
    """A diagnostic of an account: a rank decided with a tolerance, a view whose noise is rank
    deficient, a certificate left undetermined (``AccountResult.diagnostics`` has its kind and
    count)."""


class PaperFormulaWarning(NetdpWarning):
    """The values are a paper's formula, which is not an upper bound on the observer's view
    (``bound="paper"``); they are labelled ``paper-formula`` in every output."""


def warn_all(messages: Iterable[str], category: type[Warning], stacklevel: int) -> None:
    """Raises each message once, in order, under ``category``; ``stacklevel`` as warnings.warn's,
    counted from this function (2: its caller)."""
    for message in dict.fromkeys(messages):
        warnings.warn(message, category, stacklevel=stacklevel)
