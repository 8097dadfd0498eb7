"""The typed Python layer over the Rami deal loop: validate, call the kernel, return numpy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...game.inputs.checks import check_int
from ...game.inputs.specs import brief
from ...game.rng_nb import check_seed
from ..game.cards import N_KINDS, deck_kinds
from ..game.melds_nb import SCRATCH_SIZE
from ..game.moves_nb import C_WIDTH, MAX_CANDIDATES, MAX_TABLE, T_WIDTH
from ..game.rules import RamiRules, check_deal_fits, check_players
from ..game.tables import rami_tables
from .deal_nb import O_SIZE, PS_WIDTH, TR_TABLE, DealSetup, DealWork, play_deals_nb
from .games_nb import play_rami_games_nb
from .records import RAMI_GAME_DTYPE, RAMI_RECORD_DTYPE
from .strategy import RamiStrategy, parse_rami_strategy

MAX_DEALS = 10**12


def check_strategies(strategies: Any) -> list[RamiStrategy]:
    """One parsed strategy per player, 2-6 of them; one-line ValueErrors otherwise."""
    if isinstance(strategies, (str, RamiStrategy)) or not isinstance(strategies, Sequence):
        raise ValueError(f"strategies must be a list with one rami strategy per player "
                         f"(2 to 6), e.g. ['careful', 'simple'], got {brief(strategies)}")
    check_players(len(strategies))
    return [parse_rami_strategy(s) for s in strategies]


def deal_setup(rules: RamiRules, params: np.ndarray) -> DealSetup:
    """What the deal kernels read of a run: the rules packed, their lookup tables, the
    seats' parameter rows (one per player) and the pack."""
    return DealSetup(rules.packed(), rami_tables(rules), params, deck_kinds(rules.jokers))


def deal_work(rules: RamiRules, players: int) -> DealWork:
    """Every array one deal loop works in, made once per rules and player count."""
    cards = rules.deck_size()
    return DealWork(deck=np.zeros(cards, dtype=np.int64), draws=np.zeros(cards, dtype=np.uint64),
                    state=np.zeros(2, dtype=np.uint64),
                    hands=np.zeros((players, N_KINDS), dtype=np.int64),
                    table=np.zeros((MAX_TABLE, T_WIDTH), dtype=np.int64),
                    pile=np.zeros(cards, dtype=np.int64),
                    pstate=np.zeros((players, PS_WIDTH), dtype=np.int64),
                    cand=np.zeros((MAX_CANDIDATES, C_WIDTH), dtype=np.int64),
                    scratch=np.zeros(SCRATCH_SIZE, dtype=np.int64),
                    outcome=np.zeros(O_SIZE, dtype=np.int64),
                    totals=np.zeros((players, 2), dtype=np.int64))


def _checked(strategies: Sequence[Any], rules: RamiRules | str | None, seed: int,
             start: int, stop: int) -> tuple[RamiRules, np.ndarray, int, int, int]:
    """The arguments every deal driver takes, checked: the rules, the seats' parameter
    rows (one per player), the seed and the deal range."""
    seats = check_strategies(strategies)
    rules = RamiRules.coerce(rules)
    check_deal_fits(rules, len(seats))
    seed = kernel_seed(check_seed(seed))
    start = check_int(start, "start", 0, MAX_DEALS)
    stop = check_int(stop, "stop", start, MAX_DEALS)
    return rules, np.stack([s.vector() for s in seats]), seed, start, stop


def kernel_seed(seed: int) -> int:
    """The seed as the deal kernels take it: an int64 with the seed's 64 bits (seeds from
    2**63 wrap below zero). The kernels read it as ``np.uint64(seed)``, so every seed
    keys its own deals and the compiled int64 signature serves the whole range."""
    return seed - 2**64 if seed > 2**63 - 1 else seed


def play_deal_records(strategies: Sequence[Any], *, start: int = 0, stop: int, seed: int = 0,
                      rules: RamiRules | str | None = None, trace_rows: int = 0
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Deals ``start .. stop-1``: (records of :data:`RAMI_RECORD_DTYPE`, one row per deal
    and player, and the first deal's per-turn trace, cut at ``trace_rows`` rows)."""
    rules, params, seed, start, stop = _checked(strategies, rules, seed, start, stop)
    players = len(params)
    trace = np.zeros((trace_rows, TR_TABLE + MAX_TABLE * T_WIDTH), dtype=np.int64)
    out = np.zeros((stop - start) * players, dtype=RAMI_RECORD_DTYPE)
    rows = play_deals_nb(seed, start, stop, deal_setup(rules, params), deal_work(rules, players),
                         trace, out)
    return out, trace[:rows]


def play_game_records(strategies: Sequence[Any], *, start: int = 0, stop: int, seed: int = 0,
                      rules: RamiRules | str | None = None) -> np.ndarray:
    """Games ``start .. stop-1`` to the target: records of :data:`RAMI_GAME_DTYPE`, one
    row per game and player."""
    rules, params, seed, start, stop = _checked(strategies, rules, seed, start, stop)
    players = len(params)
    out = np.zeros((stop - start) * players, dtype=RAMI_GAME_DTYPE)
    play_rami_games_nb(seed, start, stop, deal_setup(rules, params), deal_work(rules, players),
                       out)
    return out
