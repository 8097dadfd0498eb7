"""Duplicate-deal pairing: a run's pair counts and deal totals, and rates and means by deal."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..runner.aggregate import DEAL_TABLES, SWAPPED_FIELDS, deal_keys
from ..simulator.machine.records import RECORD_DTYPE, per_deal_sum, whole_deals
from .intervals import Z95, clustered_wilson, moment_interval

#: Seat words of per-hand rows as the records code them.
SEAT_CODES = {"a": 0, "b": 1, "": -1}
#: ``attrs["design"]`` of a duplicate run's per-hand rows and aggregate tables.
DUPLICATE = "duplicate"
#: What the means over deals need from the ``deals`` table (summed over its rows).
DEAL_MOMENTS = ("sum_points_a", "sum_points_b", "sumsq_points_a", "sumsq_points_b",
                "sum_points_a_x_b", "sum_turns", "sumsq_turns")


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


def with_basis(frame: pd.DataFrame, pairs: Mapping[str, Any] | None, hands: int,
               note: str = "") -> pd.DataFrame:
    """``frame`` with ``attrs``: ``basis`` (:func:`deal_basis`), ``deals`` (distinct deals
    behind the table) and ``mirrored`` (whether each deal counts once)."""
    frame.attrs = {"basis": deal_basis(pairs, hands) + note,
                   "deals": int(pairs["deals"]) if pairs is not None else hands,
                   "mirrored": is_mirrored(pairs)}
    return frame


def paired_rates(k: np.ndarray, n: np.ndarray, pairs: tuple | None, mirrored: bool
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


def whole_run_pairs(k: np.ndarray, both: np.ndarray, deals: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pair counts of a rate over every hand (each deal has both its hands in the
    denominator): ``k`` successes, ``both`` deals with two of them."""
    p2 = np.asarray(both, dtype=float)
    p1 = np.asarray(k, dtype=float) - 2 * p2
    return deals - p1 - p2, p1, p2


def selected_knock_pairs(pairs: Mapping[str, Any] | None, keep: Callable[[int, int], Any]
                         ) -> pd.DataFrame | None:
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


def undercut_pair_columns(found: pd.DataFrame | None, index: pd.MultiIndex | pd.Index
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


def deal_means(deals: Mapping[str, int], column: str) -> tuple[float, float, float]:
    """(mean, low, high) per hand of ``column`` over deals: each deal's mean of its two
    hands, normal 95% over deals."""
    n = int(deals["deals"])
    return moment_interval(n, deals[f"sum_{column}"] / 2, deals[f"sumsq_{column}"] / 4)


def deals_of(table: pd.DataFrame) -> dict[str, int] | None:
    """The deal totals a duplicate run's table carries (None for independent hands)."""
    return table.attrs.get("deals") if table.attrs.get("design") == DUPLICATE else None


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

