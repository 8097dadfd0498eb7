"""The knock chart: is knocking now better than waiting a turn, by deadwood x stock left?

Also the knock card: a knock probability per deadwood x stock bucket (0 or 1 for a pure
plan), the one table that the report's answer and its printable card are drawn from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..game.checks import check_int
from ..game.rules import Rules, brief
from ..simulator.chart import knock_decisions
from ..strategies.params import N_BUCKETS
from ..strategies.presets import Strategy
from .frames import in_play_order
from .summary import Z95

DISPLAY_EDGES = (28, 24, 20, 16, 12, 8, 4)
STRATEGY_EDGES = (24, 16, 8)
DECISION_COLUMNS = ("deadwood", "stock_left", "gain")  # what chart_table reads
MIN_CELL = 30  # decisions a chart cell needs before its colour or verdict is trusted


def decisions_frame(strategy: str | Strategy = "simple", opponent: str | Strategy = "simple",
                    hands: int = 100_000, seed: int = 0, rules: Rules | str | None = None
                    ) -> pd.DataFrame:
    """Every decision point of ``strategy`` with both branches (see ``knock_decisions``),
    plus ``gain`` = net_knock - net_wait (points per hand for the strategy)."""
    rows = knock_decisions(strategy, opponent, hands, seed, rules)
    frame = pd.DataFrame({name: rows[name] for name in rows.dtype.names})
    frame["gain"] = frame["net_knock"] - frame["net_wait"]
    return frame


def stock_bucket(stock_left: np.ndarray, edges: Sequence[int]) -> np.ndarray:
    """Bucket 0 for stock >= edges[0], 1 for >= edges[1], ..., len(edges) below."""
    stock_left = np.asarray(stock_left)
    return np.sum(stock_left[:, None] < np.asarray(edges)[None, :], axis=1)


def bucket_labels(edges: Sequence[int], top: int = 31) -> list[str]:
    """Text of each stock bucket in play order (most cards left first), e.g. ``24-31``."""
    highs = [top, *[e - 1 for e in edges]]
    lows = [*edges, 0]
    return [f"{lo}-{hi}" for lo, hi in zip(lows, highs, strict=True)]


def chart_table(decisions: pd.DataFrame, edges: Sequence[int] = DISPLAY_EDGES) -> pd.DataFrame:
    """Mean gain of knocking now over waiting a turn, per deadwood x stock bucket, from the
    decision points of :func:`decisions_frame`.

    Columns: ``deadwood``, ``bucket`` (0 = most cards left), ``stock`` (its range of stock
    left, an ordered categorical in play order), ``n``, ``gain`` (points per decision for
    the deciding player), ``low``/``high`` (95% normal interval; missing below two
    decisions), ``verdict``: ``knock`` (interval above 0), ``wait`` (below 0) or
    ``unclear``. Rows run in play order: by bucket, then deadwood.
    """
    edges = check_edges(edges)
    missing = [c for c in DECISION_COLUMNS if c not in getattr(decisions, "columns", ())]
    if not isinstance(decisions, pd.DataFrame) or missing:
        raise ValueError("chart_table takes the DataFrame of decisions_frame() (columns "
                         f"{', '.join(DECISION_COLUMNS)}), got {brief(decisions)}")
    frame = decisions.assign(bucket=stock_bucket(decisions["stock_left"].to_numpy(), edges))
    grouped = frame.groupby(["deadwood", "bucket"])["gain"]
    table = grouped.agg(n="size", gain="mean", sd="std").reset_index()
    half = Z95 * table["sd"] / np.sqrt(table["n"])
    table["low"] = table["gain"] - half
    table["high"] = table["gain"] + half
    table["verdict"] = np.select([table["low"] > 0, table["high"] < 0], ["knock", "wait"],
                                 "unclear")
    labels = bucket_labels(edges)
    table.insert(2, "stock", pd.Categorical([labels[b] for b in table["bucket"]], labels,
                                            ordered=True))
    table = table.sort_values(["bucket", "deadwood"], kind="stable").reset_index(drop=True)
    return table.drop(columns="sd")


def knock_chart(strategy: str | Strategy = "simple", opponent: str | Strategy = "simple",
                hands: int = 100_000, seed: int = 0, rules: Rules | str | None = None,
                edges: Sequence[int] = DISPLAY_EDGES) -> pd.DataFrame:
    """Knock now or wait a turn? Play ``hands`` hands of ``strategy`` against
    ``opponent``; at every point where ``strategy`` may knock, play the hand on both
    ways from the same cards, and return the table of :func:`chart_table` (the same as
    ``ginsim knock-chart``; ``seed`` defaults to the command's 0)."""
    edges = check_edges(edges)  # before any hand is played
    return chart_table(decisions_frame(strategy, opponent, hands, seed, rules), edges)


def check_edges(edges: object) -> tuple[int, ...]:
    """Stock edges of a chart's buckets: whole numbers in 1..31, strictly decreasing."""
    if isinstance(edges, (str, bytes)) or not isinstance(edges, Sequence) or not edges:
        raise ValueError(f"edges must be a list of stock counts like {list(DISPLAY_EDGES)}, "
                         f"got {brief(edges)}")
    values = tuple(check_int(e, "each stock edge", 1, 31) for e in edges)
    if any(a <= b for a, b in zip(values, values[1:], strict=False)):
        raise ValueError(f"edges must be strictly decreasing stock counts like "
                         f"{list(DISPLAY_EDGES)}, got {brief(edges)}")
    return values


def chart_masks(chart: pd.DataFrame) -> tuple[int, ...]:
    """Knock masks per bucket (bit d = knock at deadwood d) where the mean gain is > 0.

    Bit 0 (gin, always taken) is set in every mask, so a bucket where waiting always
    wins reads "never knock" rather than 0, which would mean "no chart".
    """
    masks = [1] * (int(chart["bucket"].max()) + 1 if len(chart) else N_BUCKETS)
    for row in chart.itertuples():
        if row.gain > 0:
            masks[row.bucket] |= 1 << int(row.deadwood)
    return tuple(masks)


def chart_spec(base: str, masks: Sequence[int]) -> str:
    """A strategy spec that knocks by ``masks`` (one per strategy stock bucket)."""
    sep = "," if ":" in base else ":"
    return f"{base}{sep}chart={'/'.join(str(m) for m in masks)}"


def plain_words(chart: pd.DataFrame, opponent: str, min_n: int = MIN_CELL) -> str:
    """One or two sentences that say when to knock, read off a chart's cells with at
    least ``min_n`` decisions."""
    parts = []
    trusted = chart[chart["n"] >= min_n] if "n" in chart else chart
    if trusted.empty:
        return (f"Against `{opponent}`: no cell has {min_n} decisions yet; play more hands "
                "to read the chart.")
    for bucket in sorted(trusted["bucket"].unique()):
        cells = trusted[trusted["bucket"] == bucket].sort_values("deadwood")
        knock = cells[cells["verdict"] == "knock"]["deadwood"].tolist()
        wait = cells[cells["verdict"] == "wait"]["deadwood"].tolist()
        stock = cells["stock"].iloc[0]
        if knock and not wait:
            text = ("knock at any deadwood" if len(knock) == len(cells)
                    else f"knock at deadwood {_ranges(knock)} (elsewhere unclear)")
        elif wait and not knock:
            text = ("do not knock: wait for gin" if len(wait) == len(cells)
                    else f"wait at deadwood {_ranges(wait)} (elsewhere unclear)")
        elif knock:
            text = f"knock at deadwood {_ranges(knock)}, wait at {_ranges(wait)}"
        else:
            text = "the evidence does not separate knocking from waiting"
        parts.append(f"with {stock} cards left in the stock, {text}")
    return f"Against `{opponent}`: " + "; ".join(parts) + "."


def _ranges(values: list[int]) -> str:
    out, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(f"{start}" if start == v else f"{start}-{v}")
            start = None
    return ", ".join(out)


# ---------------------------------------------------------------- the knock card

CARD_COLUMNS = ("deadwood", "stock", "p_knock", "n")


@dataclass(frozen=True)
class KnockAdvice:
    """What the report advises: a knock card, what following it is worth, and whom it
    was found against.

    ``card`` is a :func:`knock_card` table. ``value`` is (mean, low, high) points per hand
    with a 95% interval, measured against ``measured_against``. ``exploits`` names the
    fixed opponent the card is a best response to (an exploit of that bot), or is None
    for an equilibrium card (one a player who adapts can hardly exploit). ``source`` says in a
    few words how the card was found; ``deals`` is the sample behind ``value``.
    ``exploitability`` (mean, low, high) is what a best response gains against an
    equilibrium card, points per hand.
    """

    card: pd.DataFrame
    value: tuple[float, float, float]
    measured_against: str
    exploits: str | None
    source: str
    deals: int | None = None
    exploitability: tuple[float, float, float] | None = None


def knock_card(p_knock: pd.DataFrame | np.ndarray, edges: Sequence[int] = DISPLAY_EDGES,
               n: np.ndarray | None = None) -> pd.DataFrame:
    """A knock card: the probability of knocking (gin always goes down) per knocker
    deadwood x stock-left bucket, as a tidy table in play order.

    ``p_knock`` is either a DataFrame with ``deadwood``, ``stock`` (range labels such as
    ``24-31``) and ``p_knock`` (optionally ``n``, the decisions behind each cell), or an
    array of shape (deadwood 1..K, buckets of ``edges`` in play order). Columns:
    ``deadwood``, ``stock`` (ordered categorical, most cards left first), ``p_knock``
    (0..1), ``n`` (missing when the card was not measured cell by cell).
    """
    if isinstance(p_knock, pd.DataFrame):
        missing = [c for c in ("deadwood", "stock", "p_knock") if c not in p_knock.columns]
        if missing:
            raise ValueError(f"knock_card: missing column '{missing[0]}' (need deadwood, "
                             "stock, p_knock)")
        card = p_knock[[c for c in CARD_COLUMNS if c in p_knock.columns]].copy()
        if "n" not in card:
            card["n"] = np.nan
        card["stock"] = card["stock"].astype(str)
    else:
        grid = np.asarray(p_knock, dtype=float)
        labels = bucket_labels(edges)
        if grid.ndim != 2 or grid.shape[1] != len(labels):
            raise ValueError(f"knock_card: expected an array of shape (deadwood, "
                             f"{len(labels)} stock buckets), got {grid.shape}")
        counts = np.full(grid.shape, np.nan) if n is None else np.asarray(n, dtype=float)
        rows = [(d + 1, labels[b], grid[d, b], counts[d, b])
                for b in range(grid.shape[1]) for d in range(grid.shape[0])]
        card = pd.DataFrame(rows, columns=list(CARD_COLUMNS))
    p = card["p_knock"].to_numpy(dtype=float)
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("knock_card: p_knock must lie in 0..1 (a knock probability)")
    if card.duplicated(["deadwood", "stock"]).any():
        raise ValueError("knock_card: more than one row for some (deadwood, stock) cell")
    order = in_play_order(card["stock"])
    card["stock"] = pd.Categorical(card["stock"], order, ordered=True)
    card["deadwood"] = card["deadwood"].astype(int)
    return card.sort_values(["stock", "deadwood"], kind="stable").reset_index(drop=True)


def threshold_card(threshold: int | Sequence[int], knock_limit: int = 10,
                   edges: Sequence[int] = DISPLAY_EDGES) -> pd.DataFrame:
    """The card of "knock at deadwood <= threshold" (one threshold, or one per bucket of
    ``edges``); 0 means wait for gin."""
    buckets = len(edges) + 1
    limits = [threshold] * buckets if isinstance(threshold, int) else list(threshold)
    if len(limits) != buckets:
        raise ValueError(f"threshold_card: need 1 or {buckets} thresholds, got {len(limits)}")
    deadwood = np.arange(1, max(knock_limit, 1) + 1)[:, None]
    return knock_card((deadwood <= np.asarray(limits)[None, :]).astype(float), edges)


def card_from_chart(chart: pd.DataFrame, min_n: int = MIN_CELL) -> pd.DataFrame:
    """A pure card read off a :func:`chart_table`: knock where the mean gain of knocking
    now is above 0 (cells with fewer than ``min_n`` decisions: wait)."""
    p = ((chart["gain"] > 0) & (chart["n"] >= min_n)).astype(float)
    return knock_card(chart.assign(p_knock=p, stock=chart["stock"].astype(str)))


def card_words(card: pd.DataFrame) -> str:
    """What a card says, in a short clause: "wait for gin (never knock with deadwood)",
    "knock at deadwood 1-10", or per range of stock left. Mixed cells (0 < p < 1) are
    read as knock when p >= 0.5."""
    plans: list[tuple[str, str]] = []
    for stock, cells in card.groupby("stock", observed=True, sort=True):
        knock = sorted(int(d) for d in cells.loc[cells.p_knock >= 0.5, "deadwood"])
        text = f"knock at deadwood {_ranges(knock)}" if knock else "wait for gin"
        if plans and plans[-1][1] == text:
            plans[-1] = (f"{str(stock).split('-')[0]}-{plans[-1][0].split('-')[1]}", text)
        else:
            plans.append((str(stock), text))
    if len(plans) == 1:
        text = plans[0][1]
        return text + ": never knock with deadwood left" if text == "wait for gin" else text
    low_of = {p[0]: int(p[0].split("-")[0]) for p in plans}
    return "; ".join(f"{text} with {_stock_words(stock, low_of[stock])}"
                     for stock, text in plans)


def _stock_words(stock: str, low: int) -> str:
    high = int(stock.split("-")[1])
    if low == 0:
        return f"{high} or fewer cards left"
    return f"{low}+ cards left" if high >= 31 else f"{low}-{high} left"
