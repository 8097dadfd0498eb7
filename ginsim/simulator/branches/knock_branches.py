"""Python layer of the knock chart kernel: every decision point of seat a, both branches."""

from __future__ import annotations

import numpy as np

from ...game.card_tables import card_tables
from ...game.rng_nb import check_seed
from ...game.rules import Rules
from ...strategies.presets import Strategy, parse_strategy
from ..limits import check_chart_hands, check_hands
from ..machine.buffers import chart_buffers
from ..machine.records import TRACE_WIDTH
from ..play.engine import seat_params
from .chart_nb import CHART_COLUMNS, CHART_WIDTH, MAX_POINTS_PER_HAND, knock_chart_nb
from .mc_chart_nb import mc_knock_chart_nb

CHART_DTYPE = np.dtype([(name, np.int64) for name in CHART_COLUMNS])


def knock_decisions(strategy: str | Strategy = "simple", opponent: str | Strategy = "simple",
                    hands: int = 10_000, seed: int = 0, rules: Rules | str | None = None,
                    start: int = 0) -> np.ndarray:
    """Knock-now versus wait-a-turn outcomes at every decision point of ``strategy``.

    One row per point (CHART_DTYPE): ``hand``, ``turn`` (draws so far), ``deadwood``
    (kept after the best discard), ``stock_left``, ``dealer`` (1 if ``strategy`` dealt),
    ``net_knock`` and ``net_wait`` (the strategy's points minus the opponent's in each
    branch), ``knocked`` (what the strategy actually did) and ``opp_taken`` (how many
    cards the opponent has taken from the pile so far: the knock grid's public signal),
    ``knock_limit`` (the hand's; Oklahoma: set by the upcard).
    Hands are dealt as ``simulate`` deals them, so hand ``i`` is the same deal in both.
    With an mc seat both branches play it as the hand loop does (the wait branch's mc
    seat a discards by rollouts without knocking), so each decision point costs the rest
    of the hand once more, mc turns included.
    """
    hands = check_chart_hands(hands)
    seed = check_seed(seed)
    start = check_hands(start, "start")
    rules = Rules.coerce(rules)
    if not rules.knocks:
        raise ValueError(f"rules {rules.spec()!r} allow no knocking, so there is no knock "
                         "decision to chart: give rules with a knock limit, such as modern")
    params = seat_params(strategy, opponent, rules)
    kernel = (mc_knock_chart_nb if parse_strategy(strategy).is_mc
              or parse_strategy(opponent).is_mc else knock_chart_nb)
    tab = card_tables(rules)
    buf = chart_buffers(np.zeros((0, CHART_WIDTH), dtype=np.int64),
                        np.zeros((0, TRACE_WIDTH), dtype=np.int64))
    parts = []
    i, stop = start, start + hands
    while i < stop:
        capacity = min(stop - i, 50_000) * 8 + MAX_POINTS_PER_HAND
        rows = np.zeros((capacity, CHART_WIDTH), dtype=np.int64)
        n, i = kernel(np.uint64(seed), i, stop, params, rules.packed(), tab,
                      buf._replace(rows=rows))
        parts.append(rows[:n])
    table = np.concatenate(parts) if parts else np.zeros((0, CHART_WIDTH), dtype=np.int64)
    return np.ascontiguousarray(table).view(CHART_DTYPE).reshape(-1)
