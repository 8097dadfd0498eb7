"""Strategy statistics from either per-hand records or the streamed aggregate tables.

Every function takes the ``cells`` table (outcome x knocker x dealer x knocker deadwood
x stock left, with the moment columns of :mod:`ginsim.runner.aggregate`);
:func:`cells_from_hands` builds the same table from per-hand rows, so both sources give
identical figures. Rates carry Wilson 95% intervals, means normal 95% intervals from the
exact moments. Functions return tidy DataFrames and print nothing.

Duplicate runs (every deal played twice, seats swapped) take the deal as the unit: a
table of such a run carries its deal totals and pair counts in ``attrs``
(:func:`~.pairs.pair_counts`), means are over deals, and each rate's interval treats a
deal's two hands as one cluster (:func:`~.intervals.clustered_wilson`). When every
deal's two hands are the same hand seen from the other seat (both seats play alike:
*mirrored*), each deal is counted once, so counts are of distinct hands. Every table has
a ``deals`` column (the distinct deals behind the row's denominator) and says in
``attrs["basis"]`` how many deals stand behind it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..runner.aggregate import MOMENT_COLUMNS, STOCK_EDGES, TABLES
from ..strategies.grid_nb import bucket_labels, stock_buckets
from .intervals import moment_interval
from .pairs import (
    SEAT_CODES,
    deal_means,
    deals_of,
    duplicate_attrs,
    is_mirrored,
    paired_interval,
    paired_rates,
    pairs_of,
    selected_knock_pairs,
    undercut_pair_columns,
    whole_run_pairs,
    with_basis,
)

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
    out = out[out.hands > 0].reset_index(drop=True)
    out.attrs = {}
    return out


def cells_from_hands(hands: pd.DataFrame) -> pd.DataFrame:
    """The aggregate ``cells`` table computed from per-hand rows; from a duplicate run's
    rows of whole deals, with the same ``attrs`` (design, deal totals and pair counts) as
    the run's streamed ``cells`` table."""
    cells = _moments(hands, CELL_KEYS)
    cells.attrs = duplicate_attrs(hands)
    return cells


def turns_from_hands(hands: pd.DataFrame) -> pd.DataFrame:
    """The aggregate ``turns`` table (hand-length histogram) from per-hand rows, with the
    ``attrs`` of :func:`cells_from_hands`."""
    turns = _moments(hands, TURN_KEYS)
    turns.attrs = duplicate_attrs(hands)
    return turns



def outcome_mix(cells: pd.DataFrame, label: str | None = None) -> pd.DataFrame:
    """Share of hands by outcome: ``outcome``, ``hands``, ``n``, ``deals``, ``rate``,
    ``low``, ``high`` (and ``label`` when given); see the module docstring for how a
    duplicate run counts."""
    pairs = pairs_of(cells)
    total = int(cells.hands.sum())
    counts = cells.groupby("outcome", observed=False).hands.sum()
    k = np.array([int(counts.get(o, 0)) for o in OUTCOMES])
    both = (None if pairs is None else whole_run_pairs(
        k, np.array([pairs["same_outcome"][o] for o in OUTCOMES]), pairs["deals"]))
    r = paired_rates(k, np.full(len(k), total), both, is_mirrored(pairs))
    frame = pd.DataFrame({"outcome": list(OUTCOMES), "hands": r["k"], "n": r["n"],
                          "deals": r["deals"], "rate": r["rate"], "low": r["low"],
                          "high": r["high"]})
    if label is not None:
        frame.insert(0, "label", label)
    return with_basis(frame, pairs, total)



def undercut_by_deadwood(cells: pd.DataFrame, knocker: str | None = None) -> pd.DataFrame:
    """Undercut rate of non-gin knocks by knocker deadwood: ``deadwood``, ``n`` (knocks),
    ``undercuts``, ``deals``, ``rate``, ``low``, ``high``. ``knocker`` restricts to one
    seat."""
    pairs = pairs_of(cells)
    knocks = cells[cells.outcome.isin(KNOCKS)]
    if knocker is not None:
        knocks = knocks[knocks.knocker == knocker]
    grouped = knocks.groupby("knocker_deadwood")
    n = grouped.hands.sum()
    u = knocks[knocks.outcome == "undercut"].groupby("knocker_deadwood").hands.sum()
    u = u.reindex(n.index, fill_value=0)
    seat = None if knocker is None else SEAT_CODES[str(knocker)]
    found = selected_knock_pairs(pairs, lambda stock, who: 0 if seat in (None, who) else None)
    if found is not None:
        found = found.drop(columns="group")
    r = paired_rates(u.to_numpy(), n.to_numpy(),
                     undercut_pair_columns(found, n.index.rename("deadwood")), is_mirrored(pairs))
    frame = pd.DataFrame({"deadwood": n.index.astype(int), "n": r["n"],
                          "undercuts": r["k"], "deals": r["deals"], "rate": r["rate"],
                          "low": r["low"], "high": r["high"]})
    return with_basis(frame, pairs, int(cells.hands.sum()))


def undercut_by_deadwood_stock(cells: pd.DataFrame, edges: Sequence[int] = STOCK_EDGES
                               ) -> pd.DataFrame:
    """Undercut rate by knocker deadwood x stock left at the knock (bucketed):
    ``deadwood``, ``stock``, ``n``, ``undercuts``, ``deals``, ``rate``, ``low``,
    ``high``. A duplicate run of unlike players is counted by deal for the default
    ``edges`` only (its tables track pairs in those buckets); with other edges its
    intervals are the widest its pairs allow and ``deals`` is missing."""
    pairs = pairs_of(cells)
    knocks = cells[cells.outcome.isin(KNOCKS)].copy()
    bucket = stock_buckets(knocks.stock_left.to_numpy(), edges)
    knocks["stock"] = np.array(bucket_labels(edges))[bucket]
    knocks["undercuts"] = np.where(knocks.outcome == "undercut", knocks.hands, 0)
    grouped = knocks.groupby(["knocker_deadwood", "stock"])[["hands", "undercuts"]].sum()
    grouped = grouped[grouped.hands > 0]
    tracked = tuple(edges) == STOCK_EDGES
    mirrored = is_mirrored(pairs)
    labels = bucket_labels(STOCK_EDGES)  # the buckets the knock pairs table tracks
    found = selected_knock_pairs(pairs if tracked else None,
                                 lambda stock, who: labels[stock] if stock >= 0 else None)
    untracked = pairs is not None and not mirrored and not tracked
    r = paired_rates(grouped.undercuts.to_numpy(), grouped.hands.to_numpy(),
                     undercut_pair_columns(found, grouped.index.rename(["deadwood", "group"])),
                     mirrored or untracked)
    grouped = grouped.reset_index()
    deals = r["deals"].astype(float) if untracked else r["deals"]
    if untracked:  # the bound: as if every hand were paired alike; counts stay hands
        deals[:] = np.nan
        r["n"], r["k"] = grouped.hands.to_numpy(), grouped.undercuts.to_numpy()
    frame = pd.DataFrame({"deadwood": grouped.knocker_deadwood.astype(int),
                          "stock": grouped.stock, "n": r["n"], "undercuts": r["k"],
                          "deals": deals, "rate": r["rate"], "low": r["low"],
                          "high": r["high"]})
    note = (" These stock buckets are not the tracked ones, so intervals are the widest "
            "the pairs allow." if untracked else "")
    return with_basis(frame, pairs, int(cells.hands.sum()), note)



def expected_points(cells: pd.DataFrame) -> pd.DataFrame:
    """Mean points per hand for seat a, seat b and the difference a - b, with 95%
    intervals: ``statistic``, ``mean``, ``low``, ``high``, ``n`` (hands, distinct ones for
    a mirrored run), ``deals``. A duplicate run's table (carrying its deal totals in
    ``attrs``) gives means over deals and the difference paired by deal
    (:func:`~.pairs.paired_interval`); otherwise hands are taken as independent."""
    s = cells[list(MOMENT_COLUMNS)].sum()
    n = int(s.hands)
    deals = deals_of(cells)
    pairs = pairs_of(cells)
    if deals is not None:
        d = int(deals["deals"])
        shown = d if is_mirrored(pairs) else n
        rows = [("points_a", *deal_means(deals, "points_a"), shown, d),
                ("points_b", *deal_means(deals, "points_b"), shown, d),
                ("points_a_minus_b", *paired_interval(deals), shown, d)]
    else:
        diff_sum = s.sum_points_a - s.sum_points_b
        diff_sq = s.sumsq_points_a + s.sumsq_points_b - 2 * s.sum_points_a_x_b
        rows = [("points_a", *moment_interval(n, s.sum_points_a, s.sumsq_points_a), n, n),
                ("points_b", *moment_interval(n, s.sum_points_b, s.sumsq_points_b), n, n),
                ("points_a_minus_b", *moment_interval(n, diff_sum, diff_sq), n, n)]
    frame = pd.DataFrame(rows, columns=["statistic", "mean", "low", "high", "n", "deals"])
    return with_basis(frame, pairs if deals is not None else None, n)



def win_rate(cells: pd.DataFrame) -> pd.DataFrame:
    """Share of hands won by seat a and by seat b (dead hands count for neither):
    ``seat``, ``wins``, ``n``, ``deals``, ``rate``, ``low``, ``high``. Clustered by deal
    for a duplicate run; a mirrored run's hands all count here, since the two hands of a
    deal are won by different seats."""
    pairs = pairs_of(cells)
    n = int(cells.hands.sum())
    wins_a = sum(int(cells[(cells.knocker == k) & (cells.outcome == o)].hands.sum())
                 for k, o in A_WINS)
    dead = int(cells[cells.outcome == "dead"].hands.sum())
    k = np.array([wins_a, n - dead - wins_a])
    both = (None if pairs is None else whole_run_pairs(
        k, np.array([pairs["same_winner"][s] for s in "ab"]), pairs["deals"]))
    r = paired_rates(k, np.full(2, n), both, False)  # a seat's wins differ in a deal's hands
    frame = pd.DataFrame({"seat": ["a", "b"], "wins": r["k"], "n": r["n"],
                          "deals": r["deals"], "rate": r["rate"], "low": r["low"],
                          "high": r["high"]})
    return with_basis(frame, pairs, n)


def hand_length(turns: pd.DataFrame) -> pd.DataFrame:
    """Hands by number of draws: ``turns``, ``count`` (distinct hands for a mirrored
    run), ``deals`` (deals with a hand of that length), ``share``."""
    pairs = pairs_of(turns)
    counts = turns.groupby("turns").hands.sum()
    count = counts.to_numpy().astype(np.int64)
    if pairs is None:
        deals = count
    else:
        same = pairs["turn_pairs"]
        deals = count - np.array([same.get(int(t), 0) for t in counts.index], dtype=np.int64)
    shown = count // 2 if is_mirrored(pairs) else count
    frame = pd.DataFrame({"turns": counts.index.astype(int), "count": shown, "deals": deals,
                          "share": count / count.sum()})
    return with_basis(frame, pairs, int(count.sum()))


def mean_hand_length(turns: pd.DataFrame) -> pd.DataFrame:
    """Mean draws per hand with its 95% interval (over deals for a duplicate run)."""
    s = turns[["hands", "sum_turns", "sumsq_turns"]].sum()
    n = int(s.hands)
    deals = deals_of(turns)
    pairs = pairs_of(turns)
    if deals is not None:
        d = int(deals["deals"])
        row = ("mean_turns", *deal_means(deals, "turns"), d if is_mirrored(pairs) else n, d)
    else:
        row = ("mean_turns", *moment_interval(n, s.sum_turns, s.sumsq_turns), n, n)
    frame = pd.DataFrame([row], columns=["statistic", "mean", "low", "high", "n", "deals"])
    return with_basis(frame, pairs if deals is not None else None, n)


def run_statistics(hands: pd.DataFrame) -> pd.DataFrame:
    """How one run's hands end and last: ``gin_rate``, ``undercut_rate``, ``dead_rate``,
    ``mean_draws`` and ``mean_points`` (points per hand of both players together), as
    ``statistic``, ``value``, ``low``, ``high``, ``n``, ``deals``; a duplicate run's
    rows counted by deal (see the module docstring)."""
    cells = cells_from_hands(hands)
    mix = outcome_mix(cells).set_index("outcome")
    rows = [(f"{o}_rate", mix.loc[o, "rate"], mix.loc[o, "low"], mix.loc[o, "high"],
             int(mix.loc[o, "n"]), int(mix.loc[o, "deals"])) for o in ("gin", "undercut", "dead")]
    draws = mean_hand_length(turns_from_hands(hands)).iloc[0]
    rows.append(("mean_draws", draws["mean"], draws.low, draws.high, int(draws.n),
                 int(draws.deals)))
    s = cells[list(MOMENT_COLUMNS)].sum()
    deals = deals_of(cells)
    if deals is not None:  # each deal's mean over its two hands of both seats' points
        d = int(deals["deals"])
        total = deals["sum_points_a"] + deals["sum_points_b"]
        squares = (deals["sumsq_points_a"] + deals["sumsq_points_b"]
                   + 2 * deals["sum_points_a_x_b"])
        mean = moment_interval(d, total / 2, squares / 4)
        shown = d if is_mirrored(pairs_of(cells)) else int(s.hands)
    else:
        d = shown = int(s.hands)
        mean = moment_interval(d, s.sum_points_a + s.sum_points_b,
                               s.sumsq_points_a + s.sumsq_points_b + 2 * s.sum_points_a_x_b)
    rows.append(("mean_points", *mean, shown, d))
    frame = pd.DataFrame(rows, columns=["statistic", "value", "low", "high", "n", "deals"])
    return with_basis(frame, pairs_of(cells) if deals is not None else None, int(s.hands))
