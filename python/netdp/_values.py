# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Checks of the numbers the Python functions hand to the library."""

import math
import numbers
import operator
from typing import Any, Optional


def integer(name: str, value: Any, minimum: Optional[int] = None) -> int:
    """``value`` as an int, for the keyword ``name``: an int (numpy's too), or a float without a
    fractional part (``10.0``). A fraction (``1.5``) is a ValueError, not truncated; a bool or a
    non-number is a TypeError; below ``minimum`` (when given) is a ValueError."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        result = operator.index(value)
    except TypeError:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}") from None
        number = float(value)
        if not (math.isfinite(number) and number.is_integer()):
            raise ValueError(f"{name} must be a whole number, got {value!r}") from None
        result = int(number)
    if minimum is not None and result < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {result}")
    return result
