"""Strategy statistics from either per-hand records or the streamed aggregate tables.

Every function takes the ``cells`` table (outcome x knocker x dealer x knocker deadwood
x stock left, with the moment columns of :mod:`ginsim.runner.aggregate`);
:func:`cells_from_hands` builds the same table from per-hand rows, so both sources give
identical figures. Rates carry Wilson 95% intervals, means normal 95% intervals from the
exact moments. Functions return tidy DataFrames and print nothing.

Duplicate runs (every deal played twice, seats swapped) take the deal as the unit: a
table of such a run carries its deal totals and pair counts in ``attrs``
(:func:`pair_counts`), means are over deals, and each rate's interval treats a deal's two
hands as one cluster (:func:`~.intervals.clustered_wilson`). When every deal's two hands
are the same hand seen from the other seat (both seats play alike: *mirrored*), each
deal is counted once, so counts are of distinct hands. Every table has a ``deals``
column (the distinct deals behind the row's denominator) and says in
``attrs["basis"]`` how many deals stand behind it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..runner.aggregate import (
    DEAL_TABLES,
    MOMENT_COLUMNS,
    STOCK_EDGES,
    SWAPPED_FIELDS,
    TABLES,
    deal_keys,
)
from ..simulator.machine.records import RECORD_DTYPE, per_deal_sum, whole_deals
from .intervals import Z95, clustered_wilson, moment_interval

CELL_KEYS = next(t.keys for t in TABLES if t.name == "cells")
TURN_KEYS = next(t.keys for t in TABLES if t.name == "turns")
KNOCKS = ("knock", "undercut")  # a knock that is not gin
A_WINS = (("a", "knock"), ("a", "gin"), ("a", "big_gin"), ("b", "undercut"))
SEAT_CODES = {"a": 0, "b": 1, "": -1}
#: ``attrs["design"]`` of a duplicate run's per-hand rows and aggregate tables.
DUPLICATE = "duplicate"
#: What the means over deals need from the ``deals`` table (summed over its rows).
DEAL_MOMENTS = ("sum_points_a", "sum_points_b", "sumsq_points_a", "sumsq_points_b",
                "sum_points_a_x_b", "sum_turns", "sumsq_turns")


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


def duplicate_attrs(hands: pd.DataFrame) -> dict[str, Any]:
    """The ``attrs`` that make tables of ``hands`` count by deal: ``design``, ``deals``
    (:func:`deal_moments`) and ``pairs`` (:func:`pair_counts`), when ``hands`` are a
    duplicate run's rows of whole deals (hands 2k and 2k+1 next to each other, by the
    ``hand`` column); otherwise none (hands taken as independent)."""
    if hands.attrs.get("design") != DUPLICATE:
        return {}
    deals = deal_moments_of_hands(hands)
    if deals is None:
        return {}
    return {"design": DUPLICATE, "deals": deals, "pairs": pair_counts_of_hands(hands)}


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


def hand_codes(hands: pd.DataFrame) -> dict[str, np.ndarray]:
    """The record fields present in per-hand rows as integer arrays: ``outcome`` as its
    code, ``dealer`` and ``knocker`` as seat codes (a = 0, b = 1, none = -1), numbers as
    they are, any other column as codes that are equal where its values are."""
    codes: dict[str, np.ndarray] = {}
    for name in RECORD_DTYPE.names:
        if name not in hands.columns:
            continue
        column = hands[name]
        if name in ("outcome", "dealer", "knocker") and not pd.api.types.is_numeric_dtype(
                column):
            table = ({o: i for i, o in enumerate(OUTCOMES)} if name == "outcome"
                     else SEAT_CODES)
            codes[name] = column.astype(str).map(table).fillna(-9).to_numpy(np.int64)
        elif pd.api.types.is_numeric_dtype(column):
            codes[name] = column.to_numpy()
        else:
            codes[name] = pd.factorize(column, use_na_sentinel=True)[0]
    return codes


def pair_counts_of_hands(hands: pd.DataFrame) -> dict[str, Any]:
    """:func:`pair_counts` from per-hand rows of whole duplicate deals, through the same
    :func:`~ginsim.runner.aggregate.deal_keys` the streamed deal tables use."""
    codes = hand_codes(hands)
    compare = [f for f in codes if f not in SWAPPED_FIELDS]
    keys = deal_keys({k: v[0::2] for k, v in codes.items()},
                     {k: v[1::2] for k, v in codes.items()}, compare)
    frames = {}
    for spec in DEAL_TABLES:
        columns = keys[spec.name]
        frames[spec.name] = pd.DataFrame({k: columns[k] for k in spec.keys}).assign(deals=1)
    return pair_counts(frames["deals"], frames["knock_pairs"], frames["turn_pairs"])


def pair_counts(deals: pd.DataFrame, knock_pairs: pd.DataFrame, turn_pairs: pd.DataFrame
                ) -> dict[str, Any]:
    """What the rates of a duplicate run need beyond the hand tables, from its deal tables
    (:func:`~ginsim.runner.aggregate.deal_keys`), as plain numbers: ``deals``,
    ``mirrored`` (deals whose two hands are one hand seen from both seats),
    ``same_outcome`` and ``same_winner`` (deals whose two hands share the outcome / the
    winning seat, by name), ``knock_pairs`` ({(deadwood, stock bucket, knocker,
    undercuts): deals}, -1 where the hands differ) and ``turn_pairs`` ({draws: deals})."""
    def counted(frame: pd.DataFrame, keys: Sequence[str]) -> dict:
        if frame.empty:
            return {}
        sums = frame.groupby(list(keys), observed=True)["deals"].sum()
        return {(tuple(int(v) for v in k) if isinstance(k, tuple) else int(k)): int(c)
                for k, c in sums.items() if c > 0}

    same_outcome = counted(deals, ["same_outcome"])
    same_winner = counted(deals, ["same_winner"])
    return {"deals": int(deals["deals"].sum()),
            "mirrored": int(deals.loc[deals["mirrored"] == 1, "deals"].sum()),
            "same_outcome": {o: same_outcome.get(i, 0) for i, o in enumerate(OUTCOMES)},
            "same_winner": {s: same_winner.get(i, 0) for i, s in enumerate("ab")},
            "knock_pairs": counted(knock_pairs, ["pair_deadwood", "pair_stock",
                                                 "pair_knocker", "pair_undercuts"]),
            "turn_pairs": counted(turn_pairs, ["pair_turns"])}


def pairs_of(table: pd.DataFrame) -> dict[str, Any] | None:
    """The pair counts a duplicate run's table carries (None for independent hands)."""
    if table.attrs.get("design") != DUPLICATE:
        return None
    return table.attrs.get("pairs")


def is_mirrored(pairs: Mapping[str, Any] | None) -> bool:
    """Whether every deal's two hands are one hand seen from both seats (then each deal
    counts once)."""
    return pairs is not None and pairs["deals"] > 0 and pairs["mirrored"] == pairs["deals"]


def deal_basis(pairs: Mapping[str, Any] | None, hands: int) -> str:
    """One line saying how many distinct deals stand behind a table and how they count."""
    if pairs is None:
        return f"{hands:,} hands, each on its own deal (hands taken as independent)."
    deals = int(pairs["deals"])
    if is_mirrored(pairs):
        return (f"{deals:,} distinct deals: each was played twice with the seats swapped, "
                f"and both seats played alike, so its two hands were one hand and count "
                f"once ({2 * deals:,} hands played).")
    return (f"{deals:,} distinct deals, each played twice with the seats swapped "
            f"({2 * deals:,} hands); a deal's two hands are correlated, so intervals treat "
            f"them as one cluster.")


def _with_basis(frame: pd.DataFrame, pairs: Mapping[str, Any] | None, hands: int,
                note: str = "") -> pd.DataFrame:
    """``frame`` with ``attrs``: ``basis`` (:func:`deal_basis`), ``deals`` (distinct deals
    behind the table) and ``mirrored`` (whether each deal counts once)."""
    frame.attrs = {"basis": deal_basis(pairs, hands) + note,
                   "deals": int(pairs["deals"]) if pairs is not None else hands,
                   "mirrored": is_mirrored(pairs)}
    return frame


def _rates(k: np.ndarray, n: np.ndarray, pairs: tuple | None, mirrored: bool
           ) -> dict[str, np.ndarray]:
    """``k`` of ``n`` hands as distinct counts (halved for a mirrored run), the deals
    behind ``n`` and the rate with its interval, clustered by deal when ``pairs`` (deals
    with both hands among ``n`` holding 0, 1, 2 of ``k``) are given."""
    k = np.asarray(k, dtype=np.int64)
    n = np.asarray(n, dtype=np.int64)
    if mirrored:  # both hands of every deal alike: pairs follow from the counts
        pairs = ((n - k) / 2, np.zeros(len(k)), k / 2)
    low, high, _ = clustered_wilson(k, n, pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = k / n.astype(float)
    both = n * 0 if pairs is None else np.rint(sum(np.asarray(p, float) for p in pairs))
    scale = 2 if mirrored else 1
    return {"k": k // scale, "n": n // scale, "deals": (n - both).astype(np.int64),
            "rate": rate, "low": low, "high": high}


def _whole_run_pairs(k: np.ndarray, both: np.ndarray, deals: int
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pair counts of a rate over every hand (each deal has both its hands in the
    denominator): ``k`` successes, ``both`` deals with two of them."""
    p2 = np.asarray(both, dtype=float)
    p1 = np.asarray(k, dtype=float) - 2 * p2
    return deals - p1 - p2, p1, p2


def outcome_mix(cells: pd.DataFrame, label: str | None = None) -> pd.DataFrame:
    """Share of hands by outcome: ``outcome``, ``hands``, ``n``, ``deals``, ``rate``,
    ``low``, ``high`` (and ``label`` when given); see the module docstring for how a
    duplicate run counts."""
    pairs = pairs_of(cells)
    total = int(cells.hands.sum())
    counts = cells.groupby("outcome", observed=False).hands.sum()
    k = np.array([int(counts.get(o, 0)) for o in OUTCOMES])
    both = (None if pairs is None else _whole_run_pairs(
        k, np.array([pairs["same_outcome"][o] for o in OUTCOMES]), pairs["deals"]))
    r = _rates(k, np.full(len(k), total), both, is_mirrored(pairs))
    frame = pd.DataFrame({"outcome": list(OUTCOMES), "hands": r["k"], "n": r["n"],
                          "deals": r["deals"], "rate": r["rate"], "low": r["low"],
                          "high": r["high"]})
    if label is not None:
        frame.insert(0, "label", label)
    return _with_basis(frame, pairs, total)


def _knock_pairs(pairs: Mapping[str, Any] | None, keep) -> pd.DataFrame | None:
    """The knock pairs ``keep(stock, knocker)`` selects: deals by (deadwood, group, undercuts)
    with ``group`` what ``keep`` returned (None drops the pair)."""
    if pairs is None:
        return None
    rows = []
    for (deadwood, stock, knocker, undercuts), count in pairs["knock_pairs"].items():
        group = keep(stock, knocker)
        if group is not None:
            rows.append((deadwood, group, undercuts, count))
    return pd.DataFrame(rows, columns=["deadwood", "group", "undercuts", "deals"])


def _pair_columns(found: pd.DataFrame | None, index: pd.MultiIndex | pd.Index
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Deals with 0, 1, 2 undercuts among the pairs of ``found``, aligned to ``index``."""
    if found is None:
        return None
    if found.empty:
        zeros = np.zeros(len(index))
        return zeros, zeros, zeros
    keys = ["deadwood", "group"] if isinstance(index, pd.MultiIndex) else ["deadwood"]
    table = found.pivot_table(index=keys, columns="undercuts", values="deals",
                              aggfunc="sum", fill_value=0)
    table = table.reindex(index=index, columns=[0, 1, 2], fill_value=0).fillna(0)
    return tuple(table[j].to_numpy(float) for j in (0, 1, 2))


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
    found = _knock_pairs(pairs, lambda stock, who: 0 if seat in (None, who) else None)
    if found is not None:
        found = found.drop(columns="group")
    r = _rates(u.to_numpy(), n.to_numpy(), _pair_columns(found, n.index.rename("deadwood")),
               is_mirrored(pairs))
    frame = pd.DataFrame({"deadwood": n.index.astype(int), "n": r["n"],
                          "undercuts": r["k"], "deals": r["deals"], "rate": r["rate"],
                          "low": r["low"], "high": r["high"]})
    return _with_basis(frame, pairs, int(cells.hands.sum()))


def stock_labels(edges: Sequence[int], top: int = 31) -> list[str]:
    """Range text of each stock bucket (bucket 0 is stock >= edges[0])."""
    highs = [top, *[e - 1 for e in edges]]
    lows = [*edges, 0]
    return [f"{lo}-{hi}" for lo, hi in zip(lows, highs, strict=True)]


def undercut_by_deadwood_stock(cells: pd.DataFrame, edges: Sequence[int] = STOCK_EDGES
                               ) -> pd.DataFrame:
    """Undercut rate by knocker deadwood x stock left at the knock (bucketed):
    ``deadwood``, ``stock``, ``n``, ``undercuts``, ``deals``, ``rate``, ``low``,
    ``high``. A duplicate run of unlike players is counted by deal for the default
    ``edges`` only (its tables track pairs in those buckets); with other edges its
    intervals are the widest its pairs allow and ``deals`` is missing."""
    pairs = pairs_of(cells)
    knocks = cells[cells.outcome.isin(KNOCKS)].copy()
    bucket = np.sum(knocks.stock_left.to_numpy()[:, None] < np.asarray(edges)[None, :], axis=1)
    knocks["stock"] = np.array(stock_labels(edges))[bucket]
    knocks["undercuts"] = np.where(knocks.outcome == "undercut", knocks.hands, 0)
    grouped = knocks.groupby(["knocker_deadwood", "stock"])[["hands", "undercuts"]].sum()
    grouped = grouped[grouped.hands > 0]
    tracked = tuple(edges) == STOCK_EDGES
    mirrored = is_mirrored(pairs)
    labels = stock_labels(STOCK_EDGES)  # the buckets the knock pairs table tracks
    found = _knock_pairs(pairs if tracked else None,
                         lambda stock, who: labels[stock] if stock >= 0 else None)
    untracked = pairs is not None and not mirrored and not tracked
    r = _rates(grouped.undercuts.to_numpy(), grouped.hands.to_numpy(),
               _pair_columns(found, grouped.index.rename(["deadwood", "group"])),
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
    return _with_basis(frame, pairs, int(cells.hands.sum()), note)


def _deal_means(deals: Mapping[str, int], column: str) -> tuple[float, float, float]:
    """(mean, low, high) per hand of ``column`` over deals: each deal's mean of its two
    hands, normal 95% over deals."""
    n = int(deals["deals"])
    return moment_interval(n, deals[f"sum_{column}"] / 2, deals[f"sumsq_{column}"] / 4)


def _deals_of(table: pd.DataFrame) -> dict[str, int] | None:
    return table.attrs.get("deals") if table.attrs.get("design") == DUPLICATE else None


def expected_points(cells: pd.DataFrame) -> pd.DataFrame:
    """Mean points per hand for seat a, seat b and the difference a - b, with 95%
    intervals: ``statistic``, ``mean``, ``low``, ``high``, ``n`` (hands, distinct ones for
    a mirrored run), ``deals``. A duplicate run's table (carrying its deal totals in
    ``attrs``) gives means over deals and the difference paired by deal
    (:func:`paired_interval`); otherwise hands are taken as independent."""
    s = cells[list(MOMENT_COLUMNS)].sum()
    n = int(s.hands)
    deals = _deals_of(cells)
    pairs = pairs_of(cells)
    if deals is not None:
        d = int(deals["deals"])
        shown = d if is_mirrored(pairs) else n
        rows = [("points_a", *_deal_means(deals, "points_a"), shown, d),
                ("points_b", *_deal_means(deals, "points_b"), shown, d),
                ("points_a_minus_b", *paired_interval(deals), shown, d)]
    else:
        diff_sum = s.sum_points_a - s.sum_points_b
        diff_sq = s.sumsq_points_a + s.sumsq_points_b - 2 * s.sum_points_a_x_b
        rows = [("points_a", *moment_interval(n, s.sum_points_a, s.sumsq_points_a), n, n),
                ("points_b", *moment_interval(n, s.sum_points_b, s.sumsq_points_b), n, n),
                ("points_a_minus_b", *moment_interval(n, diff_sum, diff_sq), n, n)]
    frame = pd.DataFrame(rows, columns=["statistic", "mean", "low", "high", "n", "deals"])
    return _with_basis(frame, pairs if deals is not None else None, n)


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


def deal_moments(deals: pd.DataFrame) -> dict[str, int]:
    """Totals of the aggregate ``deals`` table: ``deals`` and the sums over deals of each
    seat's points on a deal (both hands), their squares and their product, and of the
    deal's draws and their squares. A duplicate run's tables carry them as
    ``attrs["deals"]``."""
    return {"deals": int(deals["deals"].sum()),
            **{c: int(deals[c].astype(np.int64).sum()) for c in DEAL_MOMENTS}}


def deal_moments_of_hands(hands: pd.DataFrame) -> dict[str, int] | None:
    """:func:`deal_moments` from per-hand rows of duplicate deals; None unless the rows
    are whole deals (hands 2k and 2k+1 next to each other, by the ``hand`` column)."""
    if len(hands) % 2 or ("hand" in hands and not whole_deals(hands["hand"].to_numpy())):
        return None
    a = per_deal_sum(hands.points_a.to_numpy())
    b = per_deal_sum(hands.points_b.to_numpy())
    t = per_deal_sum(hands.turns.to_numpy())
    return {"deals": len(a), "sum_points_a": int(a.sum()), "sum_points_b": int(b.sum()),
            "sumsq_points_a": int((a * a).sum()), "sumsq_points_b": int((b * b).sum()),
            "sum_points_a_x_b": int((a * b).sum()), "sum_turns": int(t.sum()),
            "sumsq_turns": int((t * t).sum())}


def paired_interval(moments: Mapping[str, int]) -> tuple[float, float, float]:
    """(mean, low, high): seat a's net points per deal (the mean of a - b over the deal's
    two hands), normal 95% over deals; :func:`paired_difference` from the totals alone."""
    n = int(moments["deals"])
    total = moments["sum_points_a"] - moments["sum_points_b"]
    squares = (moments["sumsq_points_a"] + moments["sumsq_points_b"]
               - 2 * moments["sum_points_a_x_b"])
    return moment_interval(n, total / 2, squares / 4)


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
    both = (None if pairs is None else _whole_run_pairs(
        k, np.array([pairs["same_winner"][s] for s in "ab"]), pairs["deals"]))
    r = _rates(k, np.full(2, n), both, False)  # a seat's wins differ between a deal's hands
    frame = pd.DataFrame({"seat": ["a", "b"], "wins": r["k"], "n": r["n"],
                          "deals": r["deals"], "rate": r["rate"], "low": r["low"],
                          "high": r["high"]})
    return _with_basis(frame, pairs, n)


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
    return _with_basis(frame, pairs, int(count.sum()))


def mean_hand_length(turns: pd.DataFrame) -> pd.DataFrame:
    """Mean draws per hand with its 95% interval (over deals for a duplicate run)."""
    s = turns[["hands", "sum_turns", "sumsq_turns"]].sum()
    n = int(s.hands)
    deals = _deals_of(turns)
    pairs = pairs_of(turns)
    if deals is not None:
        d = int(deals["deals"])
        row = ("mean_turns", *_deal_means(deals, "turns"), d if is_mirrored(pairs) else n, d)
    else:
        row = ("mean_turns", *moment_interval(n, s.sum_turns, s.sumsq_turns), n, n)
    frame = pd.DataFrame([row], columns=["statistic", "mean", "low", "high", "n", "deals"])
    return _with_basis(frame, pairs if deals is not None else None, n)


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
    deals = _deals_of(cells)
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
    return _with_basis(frame, pairs_of(cells) if deals is not None else None, int(s.hands))
