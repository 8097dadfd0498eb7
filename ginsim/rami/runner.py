"""Running Rami at scale: deal ranges cut into chunks and played through joblib threads
(the kernels release the GIL), merged back in deal order. Every deal's cards come from
``(seed, deal)``, so the records do not depend on the chunk size or the worker count."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from ..game.checks import check_int
from ..runner.runner import resolve_workers
from .engine import (
    MAX_DEALS,
    check_strategies,
    play_deal_records,
    play_game_records,
)
from .rules import RamiRules

DEFAULT_CHUNK = 2_000


def _chunks(total: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + chunk, total)) for lo in range(0, total, chunk)]


def _run(play: Any, strategies: Sequence[Any], count: int, seed: int, rules: Any,
         n_jobs: int | None, chunk: int | None) -> np.ndarray:
    seats = [s.spec for s in check_strategies(strategies)]
    rules = RamiRules.coerce(rules)
    count = check_int(count, "the number of deals or games", 1, MAX_DEALS)
    chunk = check_int(chunk or DEFAULT_CHUNK, "chunk", 1, MAX_DEALS)
    workers = resolve_workers(n_jobs)
    pieces = _chunks(count, chunk)
    if workers == 1 or len(pieces) == 1:
        parts = [play(seats, start=lo, stop=hi, seed=seed, rules=rules) for lo, hi in pieces]
    else:
        parts = Parallel(n_jobs=min(workers, len(pieces)), backend="threading")(
            delayed(play)(seats, start=lo, stop=hi, seed=seed, rules=rules)
            for lo, hi in pieces)
    return np.concatenate(parts)


def _deals(seats: Sequence[str], *, start: int, stop: int, seed: int, rules: RamiRules
           ) -> np.ndarray:
    return play_deal_records(seats, start=start, stop=stop, seed=seed, rules=rules)[0]


def run_deals(strategies: Sequence[Any], deals: int, *, seed: int = 0,
              rules: RamiRules | str | None = None, n_jobs: int | None = 1,
              chunk: int | None = None) -> np.ndarray:
    """Deal records (one row per deal and player) of deals ``0 .. deals-1``."""
    return _run(_deals, strategies, deals, seed, rules, n_jobs, chunk)


def run_games(strategies: Sequence[Any], games: int, *, seed: int = 0,
              rules: RamiRules | str | None = None, n_jobs: int | None = 1,
              chunk: int | None = None) -> np.ndarray:
    """Game records (one row per game and player) of games ``0 .. games-1``."""
    return _run(play_game_records, strategies, games, seed, rules, n_jobs, chunk)
