"""Strategy statistics from either per-hand records or the streamed aggregate tables.

Every function takes the ``cells`` table (outcome x knocker x dealer x knocker deadwood
x stock left, with the moment columns of :mod:`ginsim.runner.aggregate`);
:func:`cells_from_hands` builds the same table from per-hand rows, so both sources give
identical figures. Rates carry Wilson 95% intervals, means normal 95% intervals from the
exact moments. Functions return tidy DataFrames and print nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..runner.aggregate import MOMENT_COLUMNS, TABLES
from ..simulator.machine.records import per_deal_sum, whole_deals
from .intervals import Z95, moment_interval, wilson_interval

CELL_KEYS = next(t.keys for t in TABLES if t.name == "cells")
TURN_KEYS = next(t.keys for t in TABLES if t.name == "turns")
KNOCKS = ("knock", "undercut")  # a knock that is not gin
A_WINS = (("a", "knock"), ("a", "gin"), ("a", "big_gin"), ("b", "undercut"))


def _moments(frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    values = frame.assign(
        hands=1, sum_points_a=frame.points_a.astype(np.int64),
        sum_points_b=frame.points_b.astype(np.int64), sum_turns=frame.turns.astype(np.int64),
        sumsq_points_a=frame.points_a.astype(np.int64) ** 2,
        sumsq_points_b=frame.points_b.astype(np.int64) ** 2,
        sumsq_turns=frame.turns.astype(np.int64) ** 2,
        sum_points_a_x_b=frame.points_a.astype(np.int64) * frame.points_b.astype(np.int64))
    out = values.groupby(list(keys), observed=True)[list(MOMENT_COLUMNS)].sum().reset_index()
    return out[out.hands > 0].reset_index(drop=True)


def cells_from_hands(hands: pd.DataFrame) -> pd.DataFrame:
    """The aggregate ``cells`` table computed from per-hand rows; from a duplicate run's
    rows of whole deals, with the same ``attrs`` (design and deal totals) as the run's
    streamed ``cells`` table."""
    cells = _moments(hands, CELL_KEYS)
    deals = deal_moments_of_hands(hands) if hands.attrs.get("design") == DUPLICATE else None
    cells.attrs = {"design": DUPLICATE, "deals": deals} if deals is not None else {}
    return cells


def turns_from_hands(hands: pd.DataFrame) -> pd.DataFrame:
    """The aggregate ``turns`` table (hand-length histogram) from per-hand rows."""
    return _moments(hands, TURN_KEYS)


def _rate_frame(k: np.ndarray, n: np.ndarray) -> dict[str, np.ndarray]:
    low, high = wilson_interval(k, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.asarray(k, float) / np.asarray(n, float)
    return {"rate": rate, "low": low, "high": high}


def outcome_mix(cells: pd.DataFrame, label: str | None = None) -> pd.DataFrame:
    """Share of hands by outcome: ``outcome``, ``hands``, ``n``, ``rate``, ``low``,
    ``high`` (and ``label`` when given)."""
    total = int(cells.hands.sum())
    counts = cells.groupby("outcome", observed=False).hands.sum()
    k = np.array([int(counts.get(o, 0)) for o in OUTCOMES])
    frame = pd.DataFrame({"outcome": list(OUTCOMES), "hands": k, "n": total,
                          **_rate_frame(k, np.full(len(k), total))})
    if label is not None:
        frame.insert(0, "label", label)
    return frame


def undercut_by_deadwood(cells: pd.DataFrame, knocker: str | None = None) -> pd.DataFrame:
    """Undercut rate of non-gin knocks by knocker deadwood: ``deadwood``, ``n`` (knocks),
    ``undercuts``, ``rate``, ``low``, ``high``. ``knocker`` restricts to one seat."""
    knocks = cells[cells.outcome.isin(KNOCKS)]
    if knocker is not None:
        knocks = knocks[knocks.knocker == knocker]
    grouped = knocks.groupby("knocker_deadwood")
    n = grouped.hands.sum()
    u = knocks[knocks.outcome == "undercut"].groupby("knocker_deadwood").hands.sum()
    u = u.reindex(n.index, fill_value=0)
    return pd.DataFrame({"deadwood": n.index.astype(int), "n": n.to_numpy(),
                         "undercuts": u.to_numpy(), **_rate_frame(u.to_numpy(), n.to_numpy())})


def stock_labels(edges: Sequence[int], top: int = 31) -> list[str]:
    """Range text of each stock bucket (bucket 0 is stock >= edges[0])."""
    highs = [top, *[e - 1 for e in edges]]
    lows = [*edges, 0]
    return [f"{lo}-{hi}" for lo, hi in zip(lows, highs, strict=True)]


def undercut_by_deadwood_stock(cells: pd.DataFrame, edges: Sequence[int] = (24, 16, 8)
                               ) -> pd.DataFrame:
    """Undercut rate by knocker deadwood x stock left at the knock (bucketed):
    ``deadwood``, ``stock``, ``n``, ``undercuts``, ``rate``, ``low``, ``high``."""
    knocks = cells[cells.outcome.isin(KNOCKS)].copy()
    bucket = np.sum(knocks.stock_left.to_numpy()[:, None] < np.asarray(edges)[None, :], axis=1)
    knocks["stock"] = np.array(stock_labels(edges))[bucket]
    knocks["undercuts"] = np.where(knocks.outcome == "undercut", knocks.hands, 0)
    grouped = knocks.groupby(["knocker_deadwood", "stock"])[["hands", "undercuts"]].sum()
    grouped = grouped[grouped.hands > 0].reset_index()
    return pd.DataFrame({"deadwood": grouped.knocker_deadwood.astype(int),
                         "stock": grouped.stock, "n": grouped.hands,
                         "undercuts": grouped.undercuts,
                         **_rate_frame(grouped.undercuts.to_numpy(), grouped.hands.to_numpy())})


def expected_points(cells: pd.DataFrame) -> pd.DataFrame:
    """Mean points per hand for seat a, seat b and the difference a - b, with 95%
    intervals: ``statistic``, ``mean``, ``low``, ``high``, ``n`` (hands). The difference
    is paired by deal (:func:`paired_interval`, over the ``n / 2`` deals) when ``cells``
    is a duplicate run's table carrying its deal totals in ``attrs``, else over hands
    taken as independent."""
    s = cells[list(MOMENT_COLUMNS)].sum()
    n = int(s.hands)
    rows = [("points_a", *moment_interval(n, s.sum_points_a, s.sumsq_points_a), n),
            ("points_b", *moment_interval(n, s.sum_points_b, s.sumsq_points_b), n)]
    deals = cells.attrs.get("deals") if cells.attrs.get("design") == DUPLICATE else None
    if deals is not None:
        rows.append(("points_a_minus_b", *paired_interval(deals), 2 * int(deals["deals"])))
    else:
        diff_sum = s.sum_points_a - s.sum_points_b
        diff_sq = s.sumsq_points_a + s.sumsq_points_b - 2 * s.sum_points_a_x_b
        rows.append(("points_a_minus_b", *moment_interval(n, diff_sum, diff_sq), n))
    return pd.DataFrame(rows, columns=["statistic", "mean", "low", "high", "n"])


def paired_difference(hands: pd.DataFrame) -> pd.DataFrame:
    """Mean of a - b per hand over duplicate deals (pairs 2d, 2d+1 share a deal), with a
    paired 95% interval over deals: ``statistic``, ``mean``, ``low``, ``high``, ``n``."""
    per_deal = (per_deal_sum(hands.points_a.to_numpy())
                - per_deal_sum(hands.points_b.to_numpy())) / 2
    mean = per_deal.mean()
    half = Z95 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    return pd.DataFrame([("points_a_minus_b_paired", mean, mean - half, mean + half,
                          len(per_deal))],
                        columns=["statistic", "mean", "low", "high", "n"])


#: ``attrs["design"]`` of a duplicate run's per-hand rows and ``cells`` table.
DUPLICATE = "duplicate"
#: What the paired interval needs from the ``deals`` table (summed over its rows).
DEAL_MOMENTS = ("sum_points_a", "sum_points_b", "sumsq_points_a", "sumsq_points_b",
                "sum_points_a_x_b")


def deal_moments(deals: pd.DataFrame) -> dict[str, int]:
    """Totals of the aggregate ``deals`` table: ``deals`` and the sums over deals of each
    seat's points on a deal (both hands), their squares and their product. A duplicate
    run's ``cells`` table carries them as ``attrs["deals"]``."""
    return {"deals": int(deals["deals"].sum()),
            **{c: int(deals[c].astype(np.int64).sum()) for c in DEAL_MOMENTS}}


def deal_moments_of_hands(hands: pd.DataFrame) -> dict[str, int] | None:
    """:func:`deal_moments` from per-hand rows of duplicate deals; None unless the rows
    are whole deals (hands 2k and 2k+1 next to each other, by the ``hand`` column)."""
    if len(hands) % 2 or ("hand" in hands and not whole_deals(hands["hand"].to_numpy())):
        return None
    a = per_deal_sum(hands.points_a.to_numpy())
    b = per_deal_sum(hands.points_b.to_numpy())
    return {"deals": len(a), "sum_points_a": int(a.sum()), "sum_points_b": int(b.sum()),
            "sumsq_points_a": int((a * a).sum()), "sumsq_points_b": int((b * b).sum()),
            "sum_points_a_x_b": int((a * b).sum())}


def paired_interval(moments: dict[str, int]) -> tuple[float, float, float]:
    """(mean, low, high): seat a's net points per deal (the mean of a - b over the deal's
    two hands), normal 95% over deals; :func:`paired_difference` from the totals alone."""
    n = int(moments["deals"])
    total = moments["sum_points_a"] - moments["sum_points_b"]
    squares = (moments["sumsq_points_a"] + moments["sumsq_points_b"]
               - 2 * moments["sum_points_a_x_b"])
    return moment_interval(n, total / 2, squares / 4)


def win_rate(cells: pd.DataFrame) -> pd.DataFrame:
    """Share of hands won by seat a and by seat b (dead hands count for neither)."""
    n = int(cells.hands.sum())
    wins_a = sum(int(cells[(cells.knocker == k) & (cells.outcome == o)].hands.sum())
                 for k, o in A_WINS)
    dead = int(cells[cells.outcome == "dead"].hands.sum())
    k = np.array([wins_a, n - dead - wins_a])
    return pd.DataFrame({"seat": ["a", "b"], "wins": k, "n": n, **_rate_frame(k, np.full(2, n))})


def hand_length(turns: pd.DataFrame) -> pd.DataFrame:
    """Hands by number of draws: ``turns``, ``count``, ``share``."""
    counts = turns.groupby("turns").hands.sum()
    return pd.DataFrame({"turns": counts.index.astype(int), "count": counts.to_numpy(),
                         "share": counts.to_numpy() / counts.sum()})


def mean_hand_length(turns: pd.DataFrame) -> pd.DataFrame:
    """Mean draws per hand with its 95% interval."""
    s = turns[["hands", "sum_turns", "sumsq_turns"]].sum()
    mean, low, high = moment_interval(int(s.hands), s.sum_turns, s.sumsq_turns)
    return pd.DataFrame([("mean_turns", mean, low, high, int(s.hands))],
                        columns=["statistic", "mean", "low", "high", "n"])
