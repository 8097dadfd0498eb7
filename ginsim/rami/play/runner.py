"""Running Rami at scale: deal and game ranges cut into chunks and played through the
runner's chunked work (:mod:`ginsim.runner.pool`: joblib threads, the kernels release
the GIL), merged back in index order. Every deal's cards come from ``(seed, deal)``, so
the records do not depend on the chunk size or the worker count."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from ...game.inputs.checks import check_int
from ...runner.kernels.compiling import KernelGroup
from ...runner.pool import chunk_size, run_index_chunks
from ..game.rules import RamiRules
from .deal_nb import play_deals_nb
from .engine import (
    MAX_DEALS,
    check_strategies,
    play_deal_records,
    play_game_records,
)
from .games_nb import play_rami_games_nb

DEFAULT_CHUNK = 2_000
#: Greek Rami's kernel groups (:func:`ginsim.runner.kernels.compiling.compile_groups` compiles
#: them, saying so, before a command's first run waits on them): each compiled by one
#: deal or game under ``rules`` (a worker process rebuilds one by its name, its recipe).
RAMI_KERNEL_GROUPS: dict[str, KernelGroup] = {group.name: group for group in (
    KernelGroup("rami deals", (play_deals_nb,),
                lambda rules: play_deal_records(["simple", "careful"], stop=1, rules=rules),
                recipe=(f"{__name__}:RAMI_KERNEL_GROUPS", ("rami deals",))),
    KernelGroup("rami games", (play_rami_games_nb,),
                lambda rules: play_game_records(["simple", "careful"], stop=1, rules=rules),
                recipe=(f"{__name__}:RAMI_KERNEL_GROUPS", ("rami games",))),
)}


def _run(play: Callable[..., np.ndarray], strategies: Sequence[Any], count: int, seed: int,
         rules: Any, n_jobs: int | None, chunk: int | None) -> np.ndarray:
    seats = [s.spec for s in check_strategies(strategies)]
    rules = RamiRules.coerce(rules)
    count = check_int(count, "the number of deals or games", 1, MAX_DEALS)
    chunk = check_int(chunk or chunk_size(count, 1, DEFAULT_CHUNK, DEFAULT_CHUNK), "chunk", 1,
                      MAX_DEALS)
    one = partial(_chunk, play, seats, seed, rules)
    return np.concatenate(run_index_chunks(one, 0, count, chunk, n_jobs))


def _chunk(play: Callable[..., np.ndarray], seats: list[str], seed: int, rules: RamiRules,
           start: int, stop: int) -> np.ndarray:
    return play(seats, start=start, stop=stop, seed=seed, rules=rules)


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
