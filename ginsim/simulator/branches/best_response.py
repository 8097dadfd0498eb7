"""Best responses over knock charts, the per-piece work: which chart maximises a player's
points per hand against a given opponent, both playing the same base card play.

The evidence is the knock chart's counterfactual branches
(:func:`~ginsim.simulator.branches.knock_branches.knock_decisions`): at every decision point of the
responder, "knock now" against "discard without knocking and follow the chart
afterwards", both branches on the same future cards. :func:`cell_sums` sums it per chart
cell over one range of hands, :func:`improved_chart` takes one policy-iteration step
from those sums, :func:`duplicate_deal_points` scores one range of duplicate deals. The
drivers that cut a measurement into pieces and run them (policy iteration, paired gains)
are in :mod:`ginsim.runner.responses`; cell sums are integer sums and per-deal values
are put back in order, so their results do not depend on the pieces or the workers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...game.rules import Rules
from ...strategies.charts.knock_charts import SHAPE, KnockChart
from ...strategies.grid_nb import grid_cells
from ...strategies.params import GRID_CELLS
from ...strategies.presets import Strategy, parse_strategy
from ..machine.records import per_deal_sum
from ..play.engine import play_records
from .knock_branches import knock_decisions

MIN_CELL_POINTS = 30  # decision points a cell needs before its evidence changes the chart


def with_chart(base: str | Strategy, chart: KnockChart) -> Strategy:
    """``base``'s card play with ``chart`` deciding its knocks."""
    parsed = parse_strategy(base)
    overrides = dict(parsed.overrides)
    overrides["grid"] = chart.grid
    return Strategy(spec=f"{parsed.spec}+chart:{chart.name}", preset=parsed.preset,
                    overrides=overrides)


def cell_sums(a: Strategy, b: Strategy, rules: Rules, seed: int, start: int, hands: int,
              limits: tuple[int, int] | None = None) -> np.ndarray:
    """int64[3, cells] over hands ``start .. start+hands-1``: decision points, sum and sum
    of squares of knock - wait (only hands whose knock limit lies in ``limits``, low and
    high included, when given)."""
    rows = knock_decisions(a, b, hands=hands, seed=seed, rules=rules, start=start)
    if limits is not None:
        rows = rows[(rows["knock_limit"] >= limits[0]) & (rows["knock_limit"] <= limits[1])]
    cell = grid_cells(rows["deadwood"], rows["stock_left"], rows["opp_taken"])
    diff = rows["net_knock"] - rows["net_wait"]
    out = np.zeros((3, GRID_CELLS), dtype=np.int64)
    out[0] = np.bincount(cell, minlength=GRID_CELLS)
    out[1] = np.bincount(cell, weights=diff, minlength=GRID_CELLS).astype(np.int64)
    out[2] = np.bincount(cell, weights=diff * diff, minlength=GRID_CELLS).astype(np.int64)
    return out


def improved_chart(p: np.ndarray, evidence: np.ndarray) -> tuple[np.ndarray, int]:
    """One policy-iteration step over a flat pure chart ``p`` (1 knock, 0 wait per cell):
    knock where the summed knock-minus-wait ``evidence`` (:func:`cell_sums`) is positive,
    only in cells with at least ``MIN_CELL_POINTS`` decision points (the rest keep their
    value). Returns the new chart and how many cells changed."""
    n, total = evidence[0], evidence[1]
    new = p.copy()
    seen = n >= MIN_CELL_POINTS
    new[seen] = (total[seen] > 0).astype(np.float64)
    return new, int((new != p).sum())


def pure_start(start_chart: KnockChart | None) -> np.ndarray:
    """The flat pure chart policy iteration starts from: ``start_chart`` rounded to
    knock/wait, or knock in every cell."""
    return (np.ones(SHAPE) if start_chart is None else np.round(start_chart.p)).reshape(-1)


def duplicate_deal_points(a: Strategy, b: Strategy, rules: Rules, seed: int, start: int,
                          hands: int) -> np.ndarray:
    """Seat a's net points per duplicate deal (mean of its two seatings) over hands
    ``start .. start+hands-1`` (two hands a deal, ``start`` and ``hands`` even)."""
    rec, _ = play_records(a, b, start=start, stop=start + hands, seed=seed, rules=rules,
                          duplicate=True)
    return (per_deal_sum(rec["points_a"]) - per_deal_sum(rec["points_b"])) / 2


@dataclass(frozen=True)
class Gain:
    """Mean points per deal (each deal played twice, seats swapped) with a 95% CI."""

    mean: float
    low: float
    high: float
    deals: int


def gain_of(diff: np.ndarray) -> Gain:
    """Mean of paired per-deal differences with its normal 95% CI."""
    mean = float(diff.mean())
    half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(diff.size) if diff.size > 1 else np.inf
    return Gain(mean, float(mean - half), float(mean + half), int(diff.size))


def block_sums(diff: np.ndarray, block: int) -> list[list[int]]:
    """Exact integer summaries of per-deal differences, ``block`` deals at a time:
    ``[deals, sum of 2*diff, sum of (2*diff)**2]`` per block (for replay checks)."""
    twice = np.rint(2 * diff).astype(np.int64)
    return [[int(part.size), int(part.sum()), int((part * part).sum())]
            for part in (twice[i:i + block] for i in range(0, twice.size, block))]


def gain_from_blocks(blocks: list[list[int]]) -> Gain:
    """The :func:`gain_of` figures recomputed from :func:`block_sums` alone."""
    n, s, q = (sum(int(b[i]) for b in blocks) for i in range(3))
    mean = s / (2 * n)
    var = (q / 4 - n * mean * mean) / (n - 1) if n > 1 else np.inf
    half = 1.96 * np.sqrt(max(var, 0.0)) / np.sqrt(n)
    return Gain(float(mean), float(mean - half), float(mean + half), int(n))
