"""Summary of a simulated run: outcome shares and mean points, with 95% intervals.

The interval formulas live in :mod:`.intervals`; they are re-exported here for callers
that import them from this module. A duplicate run takes the deal as the unit (see
:mod:`.metrics` and :mod:`.pairs`): means over deals, rates clustered by deal, and a run
whose two hands of every deal were one hand (both seats alike) counted once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..game.inputs.specs import brief
from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..runner.aggregate import MOMENT_COLUMNS
from .intervals import Z95, mean_interval, moment_interval, wilson_interval
from .metrics import cells_from_hands, expected_points, mean_hand_length, outcome_mix
from .pairs import DEAL_MOMENTS, DUPLICATE, deal_basis, is_mirrored

__all__ = ["HAND_COLUMNS", "Z95", "mean_interval", "moment_interval", "summarize",
           "summarize_cells", "wilson_interval"]

#: Per-hand columns :func:`summarize` reads (through the cells table).
HAND_COLUMNS = ("outcome", "knocker", "dealer", "knocker_deadwood", "stock_left",
                "points_a", "points_b", "turns")
#: Per-hand columns that must hold whole numbers, and the seats' columns' words.
NUMBER_COLUMNS = ("knocker_deadwood", "stock_left", "points_a", "points_b", "turns")
SEAT_VALUES = {"dealer": ("a", "b"), "knocker": ("a", "b", "")}


def summarize(hands: pd.DataFrame) -> pd.DataFrame:
    """Tidy summary of per-hand records or of the aggregate ``cells`` table: one row per
    statistic.

    Columns: ``statistic``, ``value``, ``low``, ``high`` (95% interval), ``n`` (hands)
    and ``deals`` (the distinct deals behind it). Rates use the Wilson interval, means
    the normal approximation, hands taken as independent, unless the rows are a
    duplicate run's (its rows or cells table from :func:`ginsim.simulate` or
    :func:`ginsim.load`, marked in ``attrs["design"]``). Then the deal is the unit: means
    are over deals (each deal's mean of its two hands), rates are clustered by deal
    (:func:`~.intervals.clustered_wilson`), seat a minus seat b is
    ``mean_points_a_minus_b_paired`` (paired by deal, as the report's comparisons), and
    when both seats played every deal alike (its two hands one hand seen from both
    seats) each deal counts once, so ``n`` is the distinct hands. Duplicate rows that
    are not whole deals (filtered) are taken as independent hands. The result's
    ``attrs`` say which (``design``) and how many deals stand behind it (``basis``).

    Raises ValueError (one line) on anything else: not a DataFrame, missing columns,
    text or missing values where numbers belong, seats other than a and b.
    """
    if not isinstance(hands, pd.DataFrame):
        raise ValueError(f"summarize takes the DataFrame of simulate() (per-hand rows or "
                         f"the summary cells table), got {type(hands).__name__}")
    if "sum_points_a_x_b" in hands.columns and "hands" in hands.columns:
        return summarize_cells(hands)
    missing = [c for c in HAND_COLUMNS if c not in hands.columns]
    if missing:
        raise ValueError(f"summarize needs the columns of simulate()'s per-hand rows or of "
                         f"its summary table; this DataFrame lacks {', '.join(missing)}")
    _check_hands(hands)
    return summarize_cells(cells_from_hands(hands))


def _check_hands(hands: pd.DataFrame) -> None:
    """ValueError (one line) unless per-hand rows hold what simulate() writes there."""
    if hands.empty:
        raise ValueError("summarize needs at least one hand; this DataFrame has no rows")
    for column in NUMBER_COLUMNS:
        _check_numbers(hands[column], column, "per-hand rows")
    for column, allowed in SEAT_VALUES.items():
        values = hands[column]
        if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
            raise ValueError(f"summarize: column {column} holds numbers ({_sample(values)}); "
                             f"it takes the seats as simulate() writes them "
                             f"({', '.join(repr(v) for v in allowed)}): decode raw records "
                             f"with ginsim.analysis.records_frame")
        bad = sorted(set(values.astype(str)) - set(allowed))
        if bad:
            raise ValueError(f"summarize: column {column} holds {brief(bad[0])}, not a seat: "
                             f"its values are {', '.join(repr(v) for v in allowed)}")


def _check_numbers(values: pd.Series, column: str, what: str) -> None:
    """ValueError (one line) unless ``values`` are whole numbers with none missing."""
    if (not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)
            or isinstance(values.dtype, pd.CategoricalDtype)):
        raise ValueError(f"summarize: column {column} of the {what} holds "
                         f"{values.dtype} values ({_sample(values)}), not numbers; convert it "
                         f"with pd.to_numeric(frame[{column!r}]) or pass simulate()'s output")
    numbers = values.to_numpy(dtype=float, na_value=np.nan)
    if not np.isfinite(numbers).all():
        raise ValueError(f"summarize: column {column} of the {what} has missing or "
                         f"infinite values; drop those rows or pass simulate()'s output")
    if (numbers != np.round(numbers)).any():
        raise ValueError(f"summarize: column {column} of the {what} holds fractions "
                         f"({_sample(values[numbers != np.round(numbers)])}); simulate() "
                         f"writes whole numbers there")


def _sample(values: pd.Series) -> str:
    """The first few distinct values of a column, for an error message."""
    shown = [brief(v) for v in pd.unique(values.to_numpy(dtype=object))[:3]]
    return ", ".join(shown)


def _check_cells(cells: pd.DataFrame) -> None:
    """ValueError (one line) unless ``cells`` is a cells table whose counts and sums are
    whole numbers."""
    missing = [c for c in ("outcome", *MOMENT_COLUMNS) if c not in getattr(
        cells, "columns", ())]
    if not isinstance(cells, pd.DataFrame) or missing:
        raise ValueError("summarize_cells takes the aggregate cells table (Result.summary)"
                         + (f"; this one lacks {', '.join(missing)}" if missing else ""))
    for column in MOMENT_COLUMNS:
        _check_numbers(cells[column], column, "cells table")
    if (cells["hands"] < 0).any():
        raise ValueError("summarize: the cells table has negative hand counts; pass the "
                         "summary table of simulate(records='summary') or ginsim.load()")
    if int(cells["hands"].sum()) == 0:
        raise ValueError("summarize needs at least one hand; this cells table counts none")


def _deal_unit(cells: pd.DataFrame, deals: Mapping[str, int] | None,
               pairs: Mapping[str, Any] | None
               ) -> tuple[Mapping[str, int] | None, Mapping[str, Any] | None]:
    """The deal totals and pair counts that make the deal the unit (by default those a
    duplicate run's table carries), checked; (None, None) for independent hands."""
    if cells.attrs.get("design") == DUPLICATE:
        deals = cells.attrs.get("deals") if deals is None else deals
        pairs = cells.attrs.get("pairs") if pairs is None else pairs
    if deals is None:
        return None, None  # pair counts without the deal totals cannot make a deal the unit
    if any(c not in deals for c in ("deals", *DEAL_MOMENTS)):
        raise ValueError(f"summarize_cells: deals must be the totals of the deals table "
                         f"(pairs.deal_moments), with {', '.join(DEAL_MOMENTS)}")
    return deals, pairs


def _check_outcomes(cells: pd.DataFrame) -> None:
    """ValueError (one line) if a counted row's outcome is not one simulate() records."""
    unknown = sorted(set(cells.loc[cells["hands"] > 0, "outcome"].astype(str)) - set(OUTCOMES))
    if unknown:
        raise ValueError(f"outcome {brief(unknown[0])} is not one simulate() records: "
                         f"outcomes are {', '.join(OUTCOMES)}")


def _summary_rows(table: pd.DataFrame, paired: bool) -> list[tuple]:
    """The summary's rows from a cells table carrying its deal ``attrs``: outcome rates,
    mean draws and mean points, seat a minus seat b named paired when ``paired``."""
    mix = outcome_mix(table).set_index("outcome")
    rows = [(f"rate_{o}", mix.loc[o, "rate"], mix.loc[o, "low"], mix.loc[o, "high"],
             int(mix.loc[o, "n"]), int(mix.loc[o, "deals"])) for o in OUTCOMES]
    points = expected_points(table).set_index("statistic")
    for statistic, name in (("points_a", "mean_points_a"), ("points_b", "mean_points_b"),
                            ("points_a_minus_b", "mean_points_a_minus_b")):
        row = points.loc[statistic]
        rows.append((name, row["mean"], row.low, row.high, int(row.n), int(row.deals)))
    turns = mean_hand_length(table).iloc[0]
    rows.insert(-1, ("mean_turns", turns["mean"], turns.low, turns.high, int(turns.n),
                     int(turns.deals)))
    if paired:  # seat a minus seat b, paired by deal
        rows[-1] = ("mean_points_a_minus_b_paired", *rows[-1][1:])
    return rows


def summarize_cells(cells: pd.DataFrame, deals: Mapping[str, int] | None = None,
                    pairs: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """:func:`summarize` from the aggregate ``cells`` table (streamed, no per-hand rows).

    Gives the same statistics as per-hand records, exactly for counts and up to float
    rounding for means and intervals. ``deals`` (:func:`~.pairs.deal_moments`) and
    ``pairs`` (:func:`~.pairs.pair_counts`), by default those a duplicate run's table
    carries in ``attrs``, make the deal the unit.
    """
    _check_cells(cells)
    deals, pairs = _deal_unit(cells, deals, pairs)
    _check_outcomes(cells)
    table = cells.copy()
    table.attrs = ({"design": DUPLICATE, "deals": dict(deals),
                    "pairs": dict(pairs) if pairs is not None else None}
                   if deals is not None else {})
    frame = pd.DataFrame(_summary_rows(table, paired=deals is not None),
                         columns=["statistic", "value", "low", "high", "n", "deals"])
    frame.attrs["design"] = ("duplicate, mirrored deals counted once" if is_mirrored(pairs)
                             else "duplicate, paired by deal" if deals is not None
                             else "independent hands")
    frame.attrs["basis"] = deal_basis(pairs, int(cells["hands"].sum()))
    return frame
