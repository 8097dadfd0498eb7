"""Bounds on every count, seed and hand index the entry points accept (the kinds of
value, whole numbers, flags and the rest, are checked by :mod:`ginsim.game.inputs.checks`;
the seed, by :func:`ginsim.game.rng_nb.check_seed`).

Each bound is checked before anything is allocated, and a value out of bounds is a
one-line ValueError that states the bound. The bounds keep every run's memory flat
and every index inside int64:

===================== ================ ====================================================
bound                 value            why
===================== ================ ====================================================
MAX_HAND_INDEX        2**62            ``start + hands``: hand indices stay in int64
MAX_JOB_HANDS         10**12           hands in one job (a million hands/s for 11 days)
MAX_CHUNKS            100,000          chunks of one job (the default size grows to fit)
MAX_RECORDS_IN_MEMORY 20,000,000       per-hand rows kept in memory (about 0.6 GB); above
                                       it use summary records or a store without them
MAX_GAMES             1,000,000        games, sessions or multi-matches per call
MAX_MATCH_TOTAL       10,000           match points that end a multi-match
MAX_GAME_HANDS        400              hands of one game, for the game kernels, the referee
                                       and the Table's game alike (dead hands are dealt
                                       again: a game not over by then is an error)
MAX_ADVISOR_ROLLOUTS  200,000          advisor rollouts per option (about 0.3 GB)
MAX_CHART_HANDS       10,000,000       knock-chart hands (every decision point is a row
                                       of 64 bytes, a few per hand: about 2 GB at most)
MAX_EQUILIBRIUM_HANDS 10,000,000       equilibrium hands per pass (each deal's points are
                                       kept for the interval: 80 MB per array)
MAX_POSITION_HANDS    100,000          ``positions`` hands (a Python row per decision, a
                                       dozen per hand: about 1 GB at most)
MAX_DECISION_MS       3,600,000        milliseconds an agent may take for one decision
                                       (an hour; the referee's wait stays a finite float)
MAX_JOBS              1,024            parallel workers (:mod:`ginsim.game.inputs.checks`)
===================== ================ ====================================================
"""

from __future__ import annotations

from typing import Any

from ..game.inputs.checks import MAX_JOBS, check_int, is_int
from ..number_text import show

MAX_HAND_INDEX = 2**62
MAX_JOB_HANDS = 10**12
MAX_CHUNKS = 100_000
MAX_RECORDS_IN_MEMORY = 20_000_000
MAX_GAMES = 1_000_000
MAX_MATCH_TOTAL = 10_000
MAX_GAME_HANDS = 400
MAX_ADVISOR_ROLLOUTS = 200_000
MAX_CHART_HANDS = 10_000_000
MAX_EQUILIBRIUM_HANDS = 10_000_000
MAX_POSITION_HANDS = 100_000
MAX_DECISION_MS = 3_600_000

__all__ = ["MAX_JOBS", "check_int", "is_int", "show"]  # the kinds, from ginsim.game.inputs.checks


def check_hands(hands: Any, name: str = "hands") -> int:
    """A hand index (``start``, ``stop``) or count: an int in 0 .. 2**62."""
    return check_int(hands, name, 0, MAX_HAND_INDEX)


def check_hand_range(hands: Any, start: Any = 0) -> tuple[int, int]:
    """(hands, start) of one job: at most :data:`MAX_JOB_HANDS` hands, ending by 2**62."""
    hands = check_int(hands, "hands", 0, MAX_JOB_HANDS)
    start = check_int(start, "start", 0, MAX_HAND_INDEX)
    if start + hands > MAX_HAND_INDEX:
        raise ValueError(f"start + hands must be at most {show(MAX_HAND_INDEX)} (hand "
                         f"indices stay in 64 bits), got {start:,} + {hands:,}")
    return hands, start


def check_games(games: Any, name: str = "games") -> int:
    """A number of games (or sessions, multi-matches): 1 .. :data:`MAX_GAMES`."""
    return check_int(games, name, 1, MAX_GAMES)


def check_decision_ms(timeout_ms: Any, name: str = "timeout_ms") -> int:
    """An agent's time for one decision in milliseconds: 1 .. :data:`MAX_DECISION_MS`."""
    return check_int(timeout_ms, name, 1, MAX_DECISION_MS)


def check_rollouts(rollouts: Any) -> int:
    """Advisor rollouts per option: 2 (for an interval) .. :data:`MAX_ADVISOR_ROLLOUTS`."""
    return check_int(rollouts, "rollouts", 2, MAX_ADVISOR_ROLLOUTS)


def check_chart_hands(hands: Any) -> int:
    """Hands of a knock chart: 1 .. :data:`MAX_CHART_HANDS` (its rows stay in memory)."""
    return check_int(hands, "hands", 1, MAX_CHART_HANDS,
                     hint="a knock chart keeps every decision point in memory")


def check_equilibrium_hands(hands: Any) -> int:
    """Equilibrium hands per pass: 1,000 (for an interval) .. :data:`MAX_EQUILIBRIUM_HANDS`."""
    return check_int(hands, "hands", 1_000, MAX_EQUILIBRIUM_HANDS,
                     hint="the equilibrium keeps every deal's points in memory")


def check_position_hands(hands: Any) -> int:
    """Hands of :func:`ginsim.positions`: 1 .. :data:`MAX_POSITION_HANDS` (rows in memory)."""
    return check_int(hands, "hands", 1, MAX_POSITION_HANDS,
                     hint="positions keeps a row per decision in memory")


def check_records_in_memory(hands: int, fix: str = "") -> None:
    """Per-hand rows kept in memory: at most :data:`MAX_RECORDS_IN_MEMORY`; ``fix`` says
    what to do instead (by default: summary records, or a store without records)."""
    if hands > MAX_RECORDS_IN_MEMORY:
        raise ValueError(f"records='full' keeps one row per hand in memory, at most "
                         f"{show(MAX_RECORDS_IN_MEMORY)} hands, got {show(hands)}; " + (
                             fix or "use records='summary' (--records summary), or write "
                             "a store with out=DIR and keep_records=False"))
