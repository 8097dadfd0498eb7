"""How numbers are written for people, in one place: bounds in error messages, the
terminal's shares and intervals, the report's table cells and the answer's signed points.

A leaf module (it imports nothing of ginsim), so every layer writes numbers alike. A
value that could not be computed (a 95% interval on too few hands) reads :data:`NA`;
an empty cell of a report's table reads :data:`MISSING`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

NA = "n/a"  # a value that could not be computed
MISSING = "–"  # an empty cell of a report's table


def show(n: int) -> str:
    """A bound as people write it: ``2**62`` for big powers of two, ``1,000,000`` with
    thousands marked from 10,000, small ones bare (``0..1000``)."""
    if n > 2**20 and n & (n - 1) == 0:
        return f"2**{n.bit_length() - 1}"
    if n > 2**20 and (n + 1) & n == 0:
        return f"2**{n.bit_length()}-1"
    return f"{n:,}" if abs(n) >= 10_000 else str(n)


def signed(value: float) -> str:
    """Points with a sign and two decimals; never a negative zero."""
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


def pct(value: float) -> str:
    """A share as a percentage with two decimals (the terminal's), :data:`NA` when not
    finite."""
    return f"{value:.2%}" if math.isfinite(value) else NA


def num(value: float, fmt: str) -> str:
    """``value`` in format ``fmt``, :data:`NA` when not finite."""
    return format(value, fmt) if math.isfinite(value) else NA


def bracketed(value: float, low: float, high: float, fmt: str = ".2f", value_fmt: str = "",
              gap: str = " ") -> str:
    """``value [low, high]``, the terminal's figure and its 95% interval, each in format
    ``fmt`` (the value in ``value_fmt`` when given, to pad it) and :data:`NA` when not
    finite."""
    return f"{num(value, value_fmt or fmt)}{gap}[{num(low, fmt)}, {num(high, fmt)}]"


def number_ranges(values: list[int]) -> str:
    """Sorted integers as ranges: [1, 2, 3, 5] -> "1-3, 5"."""
    out, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(f"{start}" if start == v else f"{start}-{v}")
            start = None
    return ", ".join(out)


def numbers_aloud(values: Sequence[int]) -> str:
    """Sorted integers as a player says them: "4 to 10", "7 and 9", "1 to 3, 5 and 8";
    two in a row are said as two ("6 and 7", not "6 to 7")."""
    items: list[str] = []
    for part in number_ranges(sorted(int(v) for v in values)).split(", "):
        low, _, high = part.partition("-")
        items += ([low, high] if high and int(high) == int(low) + 1
                  else [part.replace("-", " to ")])
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def format_number(value: float) -> str:
    """A float for a table: thousands separators when large, never scientific notation."""
    if math.isnan(value):
        return MISSING
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    size = abs(value)
    if size >= 1000:
        return f"{value:,.0f}"
    if size == 0:
        return "0"
    if size < 0.0001:
        return "<0.0001" if value > 0 else "-<0.0001"
    decimals = 4 if size < 1 else (1 if size >= 10 else 2)
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".")


def format_percent(rate: float) -> str:
    """A 0..1 rate in %: two decimals below 1%, one otherwise; a dash when missing."""
    if rate is None or not np.isfinite(rate):
        return MISSING
    share = 100 * rate
    return f"{share:.2f}%" if abs(share) < 1 else f"{share:.1f}%"


def format_points(value: float, signed: bool = False) -> str:
    """Points with two decimals (``+`` sign when ``signed``); a dash when missing."""
    if value is None or not np.isfinite(value):
        return MISSING
    text = f"{value:+,.2f}" if signed else f"{value:,.2f}"
    if text in ("-0.00", "+0.00", "0.00"):
        return "+0.00" if signed else "0.00"
    return text.replace("-", "−") if value < 0 else text


def _unsigned_zero(text: str) -> str:
    """"-0.00" (a rounding of a tiny negative) as "0.00"."""
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def format_interval(value: float, low: float, high: float, kind: str = "pct") -> str:
    """"12.3% (11.9–12.7)" or "+1.25 (+1.10 to +1.40)"; "n/a" for a missing bound."""
    if value is None or not np.isfinite(value):
        return MISSING
    if kind == "pct":
        if not (np.isfinite(low) and np.isfinite(high)):
            return f"{format_percent(value)} ({NA})"
        decimals = 2 if abs(100 * value) < 1 else 1
        low_text, high_text = (_unsigned_zero(f"{100 * v:.{decimals}f}") for v in (low, high))
        return f"{format_percent(value)} ({low_text}–{high_text})"
    is_points = kind == "points"
    fmt = (lambda v: format_points(v, is_points)) if is_points else format_number
    if not (np.isfinite(low) and np.isfinite(high)):
        return f"{fmt(value)} ({NA})"
    return f"{fmt(value)} ({fmt(low)} to {fmt(high)})"
