"""Summary of a simulated run: outcome shares and mean points, with 95% intervals.

The interval formulas live in :mod:`.intervals`; they are re-exported here for callers
that import them from this module."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.inputs.specs import brief
from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..runner.aggregate import MOMENT_COLUMNS
from .intervals import Z95, mean_interval, moment_interval, wilson_interval
from .metrics import DUPLICATE, cells_from_hands, paired_interval

__all__ = ["HAND_COLUMNS", "Z95", "mean_interval", "moment_interval", "summarize",
           "summarize_cells", "wilson_interval"]

#: Per-hand columns :func:`summarize` reads (through the cells table).
HAND_COLUMNS = ("outcome", "knocker", "dealer", "knocker_deadwood", "stock_left",
                "points_a", "points_b", "turns")


def summarize(hands: pd.DataFrame) -> pd.DataFrame:
    """Tidy summary of per-hand records or of the aggregate ``cells`` table: one row per
    statistic.

    Columns: ``statistic``, ``value``, ``low``, ``high`` (95% interval), ``n`` (hands).
    Rates use the Wilson interval, means the normal approximation. Seat a minus seat b
    is ``mean_points_a_minus_b`` (hands taken as independent) unless the rows are a
    duplicate run's (its rows or cells table from :func:`ginsim.simulate` or
    :func:`ginsim.load`, marked in ``attrs["design"]``): then it is
    ``mean_points_a_minus_b_paired``, the mean over deals of a - b averaged over the
    deal's two hands, with its interval over the ``n / 2`` deals (as the report's
    comparisons). Duplicate rows that are not whole deals (filtered) get the unpaired
    figure. The result's ``attrs["design"]`` says which.
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
    return summarize_cells(cells_from_hands(hands))


def summarize_cells(cells: pd.DataFrame, deals: dict[str, int] | None = None
                    ) -> pd.DataFrame:
    """:func:`summarize` from the aggregate ``cells`` table (streamed, no per-hand rows).

    Gives the same statistics as per-hand records, exactly for counts and up to float
    rounding for means and intervals. ``deals`` (:func:`~.metrics.deal_moments`, by
    default the ``attrs["deals"]`` of a duplicate run's table) makes a - b paired.
    """
    missing = [c for c in ("outcome", *MOMENT_COLUMNS) if c not in getattr(
        cells, "columns", ())]
    if not isinstance(cells, pd.DataFrame) or missing:
        raise ValueError("summarize_cells takes the aggregate cells table (Result.summary)"
                         + (f"; this one lacks {', '.join(missing)}" if missing else ""))
    if deals is None and cells.attrs.get("design") == DUPLICATE:
        deals = cells.attrs.get("deals")
    unknown = sorted(set(cells.loc[cells["hands"] > 0, "outcome"].astype(str)) - set(OUTCOMES))
    if unknown:
        raise ValueError(f"outcome {brief(unknown[0])} is not one simulate() records: "
                         f"outcomes are {', '.join(OUTCOMES)}")
    sums = {c: float(cells[c].sum()) for c in MOMENT_COLUMNS}
    n = int(cells["hands"].sum())
    counts = cells.groupby(cells["outcome"].astype(str), observed=True)["hands"].sum()
    rows = []
    for outcome in OUTCOMES:
        k = int(counts.get(outcome, 0))
        low, high = wilson_interval(k, n)
        rows.append((f"rate_{outcome}", k / n if n else np.nan, float(low), float(high), n))
    for column, name in (("points_a", "mean_points_a"), ("points_b", "mean_points_b"),
                         ("turns", "mean_turns")):
        rows.append((name, *moment_interval(n, sums[f"sum_{column}"],
                                             sums[f"sumsq_{column}"]), n))
    if deals is not None:
        rows.append(("mean_points_a_minus_b_paired", *paired_interval(deals),
                     2 * int(deals["deals"])))
    else:
        diff = sums["sum_points_a"] - sums["sum_points_b"]
        diff_sq = (sums["sumsq_points_a"] + sums["sumsq_points_b"]
                   - 2 * sums["sum_points_a_x_b"])
        rows.append(("mean_points_a_minus_b", *moment_interval(n, diff, diff_sq), n))
    frame = pd.DataFrame(rows, columns=["statistic", "value", "low", "high", "n"])
    frame.attrs["design"] = ("duplicate, paired by deal" if deals is not None
                             else "independent hands")
    return frame
