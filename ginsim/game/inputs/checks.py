"""The parameter layer: one typed validator per kind of public argument.

Every public argument (the Python API, the CLI options, rules fields, strategy-spec
values) is read by one of these before it is used: a whole number in bounds, a count
with its documented bound, a real number or probability, a flag, one of some words,
text, a path, a number of parallel jobs. A value of the wrong kind is refused, never
coerced: ``True`` is not the number 1, ``"0.5"`` is not a number, ``2`` is not a flag.
Each refusal is a one-line ValueError naming the argument, the value given (quoted by
:func:`~ginsim.game.inputs.specs.brief`) and what it takes. The bounds themselves live beside
what they bound (:mod:`ginsim.simulator.limits`, ``Rules`` fields, the strategy
parameter table); this module only knows kinds.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...number_text import show
from .specs import brief

#: Most parallel workers (threads or processes) one call may ask for. joblib fails in
#: its own words far below a hundred thousand; no machine this runs on has more cores.
MAX_JOBS = 1024


def is_int(value: Any) -> bool:
    """An int or numpy integer, not a bool (floats, strings and bytes are not ints)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_number(value: Any) -> bool:
    """A finite int or float (numpy's too), not a bool and not text."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        return False
    return math.isfinite(float(value))


def _hint(hint: str) -> str:
    return f"; {hint}" if hint else ""


def check_int(value: Any, name: str, low: int, high: int, hint: str = "") -> int:
    """``value`` as an int in ``low..high``; otherwise a ValueError stating the bound."""
    if not is_int(value) or not low <= int(value) <= high:
        raise ValueError(f"{name} must be a whole number in {show(low)}..{show(high)}, "
                         f"got {brief(value, 40)}" + _hint(hint))
    return int(value)


def check_count(value: Any, name: str, bound: int, low: int = 1, hint: str = "") -> int:
    """A count of things (hands, games, passes): a whole number in ``low..bound``."""
    return check_int(value, name, low, bound, hint)


def check_number(value: Any, name: str, low: float, high: float, *, low_open: bool = False,
                 hint: str = "") -> float:
    """A real number in ``low..high`` (``low`` excluded when ``low_open``) as a float."""
    ok = is_number(value) and (low < value if low_open else low <= value) and value <= high
    if not ok:
        span = f"{'above ' if low_open else ''}{low:g}..{high:g}"
        raise ValueError(f"{name} must be a number in {span}, got {brief(value, 40)}"
                         + _hint(hint))
    return float(value)


def check_probability(value: Any, name: str, *, low_open: bool = False) -> float:
    """A probability: a number in 0..1 (above 0 when ``low_open``)."""
    return check_number(value, name, 0.0, 1.0, low_open=low_open)


def check_flag(value: Any, name: str) -> bool:
    """True or False (numpy's bools too); 0, 1, 2, "no" and None are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {brief(value, 40)}")
    return bool(value)


def check_optional_flag(value: Any, name: str) -> bool | None:
    """None (the default behaviour), True or False."""
    return None if value is None else check_flag(value, name)


def check_choice(value: Any, name: str, choices: Sequence[str]) -> str:
    """One of ``choices`` (exact words, case included)."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {brief(value, 40)}")
    return value


def check_path(value: Any, name: str, what: str = "a path") -> str | os.PathLike:
    """A non-empty ``str`` or ``os.PathLike`` (no bytes, no numbers, no blank text)."""
    if not isinstance(value, (str, os.PathLike)) or not str(os.fspath(value)).strip():
        raise ValueError(f"{name} must be {what}, got {brief(value, 40)}")
    return value


def check_jobs(value: Any, name: str = "n_jobs", *, default_ok: bool = True) -> int | None:
    """Parallel workers: 1..:data:`MAX_JOBS`, or (``default_ok``) None or -1 for every
    core. Returns the value as given (None and -1 kept)."""
    if default_ok and (value is None or (is_int(value) and value == -1)):
        return None if value is None else -1
    return check_int(value, name, 1, MAX_JOBS,
                     hint="None or -1 means every core" if default_ok else "")
