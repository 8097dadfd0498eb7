"""Best responses over knock charts: which chart maximises a player's points per hand
against a given opponent, both playing the same base card play.

The evidence is the knock chart's counterfactual branches
(:func:`~ginsim.simulator.chart.knock_decisions`): at every decision point of the
responder, "knock now" against "discard without knocking and follow the chart
afterwards", both branches on the same future cards. Policy iteration: average the
difference per chart cell, knock where it is positive, replay the same deals with the
new chart, repeat. Gains are then measured on fresh duplicate deals, paired.

Hands are cut into fixed chunks (``CHUNK_HANDS``) whatever ``n_jobs``; cell sums are
integer sums and per-deal values are put back in order, so results do not depend on
``n_jobs``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed

from ..game.deal_ranges import REGIONS
from ..game.rules import Rules
from ..strategies.charts import SHAPE, KnockChart
from ..strategies.grid_nb import grid_cells
from ..strategies.params import GRID_CELLS
from ..strategies.presets import Strategy, parse_strategy
from .chart import knock_decisions
from .engine import play_records
from .records import per_deal_sum

CHUNK_HANDS = 25_000
MIN_CELL_POINTS = 30  # decision points a cell needs before its evidence changes the chart
TRAIN_REGION = REGIONS["training"]  # where training hands start (evaluation deals at 0)


def with_chart(base: str | Strategy, chart: KnockChart) -> Strategy:
    """``base``'s card play with ``chart`` deciding its knocks."""
    parsed = parse_strategy(base)
    overrides = dict(parsed.overrides)
    overrides["grid"] = chart.grid
    return Strategy(spec=f"{parsed.spec}+chart:{chart.name}", preset=parsed.preset,
                    overrides=overrides)


def _chunks(start: int, hands: int) -> list[tuple[int, int]]:
    return [(s, min(CHUNK_HANDS, start + hands - s))
            for s in range(start, start + hands, CHUNK_HANDS)]


def _cell_sums(a: Strategy, b: Strategy, rules: Rules, seed: int, start: int, hands: int,
               limits: tuple[int, int] | None = None) -> np.ndarray:
    """int64[3, cells]: decision points, sum and sum of squares of knock - wait (only
    hands whose knock limit lies in ``limits``, low and high included, when given)."""
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


def cell_evidence(a: Strategy, b: Strategy, rules: Rules, seed: int, start: int, hands: int,
                  n_jobs: int = 1, limits: tuple[int, int] | None = None) -> np.ndarray:
    """Summed knock-minus-wait evidence per grid cell over hands ``start..start+hands-1``
    (int64[3, cells]: count, sum, sum of squares), optionally only hands whose knock
    limit lies in ``limits`` (an Oklahoma knock-limit class)."""
    parts = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(_cell_sums)(a, b, rules, seed, s, n, limits) for s, n in _chunks(start, hands))
    return np.sum(parts, axis=0)


@dataclass(frozen=True)
class Gain:
    """Mean points per deal (each deal played twice, seats swapped) with a 95% CI."""

    mean: float
    low: float
    high: float
    deals: int


def _deal_points(a: Strategy, b: Strategy, rules: Rules, seed: int, start: int, hands: int
                 ) -> np.ndarray:
    rec, _ = play_records(a, b, start=start, stop=start + hands, seed=seed, rules=rules,
                          duplicate=True)
    return (per_deal_sum(rec["points_a"]) - per_deal_sum(rec["points_b"])) / 2


def deal_points(a: Strategy, b: Strategy, rules: Rules, seed: int, deals: int,
                n_jobs: int = 1, start: int = 0) -> np.ndarray:
    """Seat a's net points per duplicate deal (mean of its two seatings), deals
    ``start .. start+deals-1``."""
    parts = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(_deal_points)(a, b, rules, seed, s, n) for s, n in _chunks(2 * start, 2 * deals))
    return np.concatenate(parts)


def paired_diff(a: Strategy, b: Strategy, ref_a: Strategy, ref_b: Strategy, rules: Rules,
                seed: int, deals: int, n_jobs: int = 1, start: int = 0) -> np.ndarray:
    """Per duplicate deal: ``a``'s net points against ``b`` minus ``ref_a``'s against
    ``ref_b`` on the same deal (multiples of 0.5)."""
    return (deal_points(a, b, rules, seed, deals, n_jobs, start)
            - deal_points(ref_a, ref_b, rules, seed, deals, n_jobs, start))


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


def paired_gain(a: Strategy, b: Strategy, ref_a: Strategy, ref_b: Strategy, rules: Rules,
                seed: int, deals: int, n_jobs: int = 1, start: int = 0) -> Gain:
    """How many more points per hand ``a`` scores against ``b`` than ``ref_a`` against
    ``ref_b``, on the same duplicate deals (normal 95% CI of the paired difference)."""
    return gain_of(paired_diff(a, b, ref_a, ref_b, rules, seed, deals, n_jobs, start))


@dataclass(frozen=True)
class Response:
    """A best response: its chart, the passes it took, cells changed in each pass."""

    chart: KnockChart
    changes: list[int]
    evidence: np.ndarray


def best_response(base: str | Strategy, opponent: Strategy, rules: Rules, seed: int,
                  hands: int, *, passes: int = 3, start_chart: KnockChart | None = None,
                  n_jobs: int = 1, name: str = "response", start: int = TRAIN_REGION,
                  limits: tuple[int, int] | None = None) -> Response:
    """The pure chart for ``base``'s card play that best answers ``opponent``: policy
    iteration over ``passes`` rounds on the same ``hands`` training deals (from hand
    ``start``; with ``limits``, only the hands whose knock limit lies in it). A cell with
    fewer than ``MIN_CELL_POINTS`` decision points keeps its previous value (knock,
    unless ``start_chart`` says otherwise)."""
    p = (np.ones(SHAPE) if start_chart is None else np.round(start_chart.p)).reshape(-1)
    changes: list[int] = []
    evidence = np.zeros((3, GRID_CELLS), dtype=np.int64)
    for _ in range(max(int(passes), 1)):
        me = with_chart(base, KnockChart(p.reshape(SHAPE), name))
        evidence = cell_evidence(me, opponent, rules, seed, start, hands, n_jobs, limits)
        n, total = evidence[0], evidence[1]
        new = p.copy()
        seen = n >= MIN_CELL_POINTS
        new[seen] = (total[seen] > 0).astype(np.float64)
        changed = int((new != p).sum())
        changes.append(changed)
        p = new
        if changed == 0:
            break
    return Response(KnockChart(p.reshape(SHAPE), name), changes, evidence)
