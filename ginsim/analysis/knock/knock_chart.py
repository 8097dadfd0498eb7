"""The knock chart: is knocking now better than waiting a turn, by deadwood x stock left?

The knock card built on its buckets, the table the report's answer is read from, is
:mod:`ginsim.analysis.knock.knock_card`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...game.inputs.checks import check_int
from ...game.inputs.specs import brief
from ...game.rules import Rules
from ...number_text import number_ranges
from ...simulator.branches.knock_branches import knock_decisions
from ...strategies.grid_nb import GRID_EDGES, bucket_labels, stock_buckets
from ...strategies.params import N_BUCKETS
from ...strategies.presets import Strategy
from ..intervals import Z95

DISPLAY_EDGES = GRID_EDGES  # the report's stock buckets are the knock grid's
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


def chart_table(decisions: pd.DataFrame, edges: Sequence[int] = DISPLAY_EDGES,
                min_n: int = MIN_CELL) -> pd.DataFrame:
    """Mean gain of knocking now over waiting a turn, per deadwood x stock bucket, from the
    decision points of :func:`decisions_frame`.

    Columns: ``deadwood``, ``bucket`` (0 = most cards left), ``stock`` (its range of stock
    left, an ordered categorical in play order), ``n``, ``gain`` (points per decision for
    the deciding player), ``low``/``high`` (95% normal interval; missing below two
    decisions), ``verdict``: ``too few`` (fewer than ``min_n`` decisions), else ``knock``
    (interval above 0), ``wait`` (below 0) or ``unclear``. Rows run in play order: by
    bucket, then deadwood.
    """
    edges = check_edges(edges)
    missing = [c for c in DECISION_COLUMNS if c not in getattr(decisions, "columns", ())]
    if not isinstance(decisions, pd.DataFrame) or missing:
        raise ValueError("chart_table takes the DataFrame of decisions_frame() (columns "
                         f"{', '.join(DECISION_COLUMNS)}), got {brief(decisions)}")
    frame = decisions.assign(bucket=stock_buckets(decisions["stock_left"].to_numpy(), edges))
    grouped = frame.groupby(["deadwood", "bucket"])["gain"]
    table = grouped.agg(n="size", gain="mean", sd="std").reset_index()
    half = Z95 * table["sd"] / np.sqrt(table["n"])
    table["low"] = table["gain"] - half
    table["high"] = table["gain"] + half
    table["verdict"] = np.select([table["n"] < min_n, table["low"] > 0, table["high"] < 0],
                                 ["too few", "knock", "wait"], "unclear")
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
                    else f"knock at deadwood {number_ranges(knock)} (elsewhere unclear)")
        elif wait and not knock:
            text = ("do not knock: wait for gin" if len(wait) == len(cells)
                    else f"wait at deadwood {number_ranges(wait)} (elsewhere unclear)")
        elif knock:
            text = f"knock at deadwood {number_ranges(knock)}, wait at {number_ranges(wait)}"
        else:
            text = "the evidence does not separate knocking from waiting"
        parts.append(f"with {stock} cards left in the stock, {text}")
    return f"Against `{opponent}`: " + "; ".join(parts) + "."

