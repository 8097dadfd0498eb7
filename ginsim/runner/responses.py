"""Best responses over knock charts at scale: the evidence and paired gains of
:mod:`ginsim.simulator.branches.best_response`, measured over many hands cut into fixed pieces
(``CHUNK_HANDS``, whatever ``n_jobs``) and run through
:func:`~ginsim.runner.pool.map_chunks`.

Policy iteration (:func:`best_response`): average the knock-minus-wait difference per
chart cell, knock where it is positive, replay the same deals with the new chart,
repeat. Gains are then measured on fresh duplicate deals, paired. Cell sums are integer
sums and per-deal values come back in order, so results do not depend on ``n_jobs``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.deal_ranges import REGIONS
from ..game.rules import Rules
from ..simulator.branches.best_response import (
    Gain,
    cell_sums,
    duplicate_deal_points,
    gain_of,
    improved_chart,
    pure_start,
    with_chart,
)
from ..strategies.charts.knock_charts import SHAPE, KnockChart
from ..strategies.params import GRID_CELLS
from ..strategies.presets import Strategy
from .pool import map_chunks, spans

CHUNK_HANDS = 25_000
TRAIN_REGION = REGIONS["training"]  # where training hands start (evaluation deals at 0)


def cell_evidence(a: Strategy, b: Strategy, rules: Rules, seed: int, start: int, hands: int,
                  n_jobs: int = 1, limits: tuple[int, int] | None = None) -> np.ndarray:
    """Summed knock-minus-wait evidence per grid cell over hands ``start..start+hands-1``
    (int64[3, cells]: count, sum, sum of squares), optionally only hands whose knock
    limit lies in ``limits`` (an Oklahoma knock-limit class)."""
    calls = [(a, b, rules, seed, s, n, limits) for s, n in spans(start, hands, CHUNK_HANDS)]
    return np.sum(list(map_chunks(cell_sums, calls, n_jobs=n_jobs)), axis=0)


def deal_points(a: Strategy, b: Strategy, rules: Rules, seed: int, deals: int,
                n_jobs: int = 1, start: int = 0) -> np.ndarray:
    """Seat a's net points per duplicate deal (mean of its two seatings), deals
    ``start .. start+deals-1``."""
    calls = [(a, b, rules, seed, s, n) for s, n in spans(2 * start, 2 * deals, CHUNK_HANDS)]
    return np.concatenate(list(map_chunks(duplicate_deal_points, calls, n_jobs=n_jobs)))


def paired_diff(a: Strategy, b: Strategy, ref_a: Strategy, ref_b: Strategy, rules: Rules,
                seed: int, deals: int, n_jobs: int = 1, start: int = 0) -> np.ndarray:
    """Per duplicate deal: ``a``'s net points against ``b`` minus ``ref_a``'s against
    ``ref_b`` on the same deal (multiples of 0.5)."""
    return (deal_points(a, b, rules, seed, deals, n_jobs, start)
            - deal_points(ref_a, ref_b, rules, seed, deals, n_jobs, start))


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
    p = pure_start(start_chart)
    changes: list[int] = []
    evidence = np.zeros((3, GRID_CELLS), dtype=np.int64)
    for _ in range(max(int(passes), 1)):
        me = with_chart(base, KnockChart(p.reshape(SHAPE), name))
        evidence = cell_evidence(me, opponent, rules, seed, start, hands, n_jobs, limits)
        p, changed = improved_chart(p, evidence)
        changes.append(changed)
        if changed == 0:
            break
    return Response(KnockChart(p.reshape(SHAPE), name), changes, evidence)
