"""Every game mode through one function: play the games, return their statistics.

Standard games, Hollywood sessions, multi-matches, three-player games and two-player
teams each give a tidy table (``group``, ``statistic``, ``value``, ``low``, ``high``,
``n``): win probabilities with Wilson 95% intervals, means with normal 95% intervals.
The CLI prints this table and computes nothing itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..game.rules import Rules
from ..simulator.play import game_records as sim
from .game_stats import game_summary, play_games
from .intervals import mean_interval, wilson_interval

MODE_COLUMNS = ["group", "statistic", "value", "low", "high", "n"]


def _rate(group: str, statistic: str, hits: np.ndarray) -> tuple:
    n = len(hits)
    k = int(np.sum(hits))
    low, high = wilson_interval(k, n)
    return (group, statistic, k / n if n else np.nan, float(low), float(high), n)


def _mean(group: str, statistic: str, values: np.ndarray) -> tuple:
    return (group, statistic, *mean_interval(np.asarray(values, dtype=float)), len(values))


MATCH_TOTAL = 500  # match points that end a multi-match by default


def game_mode_summary(strategies: Sequence[str], games: int, seed: int = 0,
                      rules: Rules | str | None = None, system: str = "standard",
                      match_total: int | None = None,
                      start: tuple[int, int] | None = None) -> pd.DataFrame:
    """Play ``games`` games of one mode and summarise them.

    Two strategies play ``system`` (``standard``: P(a wins), margin, hands, shutouts per
    game; ``hollywood``: per column ``game 1``..``game 3``, P(a wins) and a's mean margin;
    ``multimatch``: P(a wins), matches and hands per multi-match). Three strategies
    play three-player games (per ``player P``: P(wins), mean score); four play teams
    (players 0, 1 against 2, 3: P(team 1 wins), mean rounds). ``match_total`` (default
    500) applies to ``multimatch`` only and is refused with any other system; ``start``
    (the points of a and b each game starts from) to two players' standard games only.
    """
    rules = Rules.coerce(rules)
    players = len(strategies)
    if players not in (2, 3, 4):
        raise ValueError(f"game modes are for 2, 3 or 4 players, got {players}")
    if system not in sim.SYSTEMS:
        raise ValueError(f"unknown game system {system!r}: choose one of {', '.join(sim.SYSTEMS)}")
    if players != 2 and system != "standard":
        raise ValueError(f"the {system} system is for two players, got {players}")
    if match_total is not None and system != "multimatch":
        raise ValueError(f"match_total ends a multi-match; the {system} system has none: "
                         f"give system='multimatch' (--system multimatch) or leave it out")
    if start is not None and (players != 2 or system != "standard"):
        raise ValueError("games start from a score in two players' standard games only: "
                         "leave start out")
    match_total = MATCH_TOTAL if match_total is None else match_total
    if players == 3:
        rows = sim.play_three(list(strategies), games, seed, rules)
        out = []
        for p in range(3):
            out += [_rate(f"player {p}", "p_wins", rows["winner"] == p),
                    _mean(f"player {p}", "mean_score", rows[f"score_{p}"])]
        return pd.DataFrame(out, columns=MODE_COLUMNS)
    if players == 4:
        rows = sim.play_teams(list(strategies), games, seed, rules)
        return pd.DataFrame([_rate("team 1", "p_wins", rows["winner"] == 0),
                             _mean("team 1", "mean_rounds", rows["rounds"])], columns=MODE_COLUMNS)
    a, b = strategies
    if system == "hollywood":
        rows = sim.play_hollywood(a, b, games, seed, rules)
        out = []
        for c in (1, 2, 3):
            col = rows[rows["column"] == c]
            margin = np.where(col["winner"] == 0, col["margin"], -col["margin"])
            out += [_rate(f"game {c}", "p_a_wins", col["winner"] == 0),
                    _mean(f"game {c}", "mean_margin_a", margin)]
        return pd.DataFrame(out, columns=MODE_COLUMNS)
    if system == "multimatch":
        rows = sim.play_multimatch(a, b, games, seed, rules, match_total)
        return pd.DataFrame([_rate("a", "p_a_wins", rows["winner"] == 0),
                             _mean("a", "mean_matches", rows["matches"]),
                             _mean("a", "mean_hands", rows["hands"])], columns=MODE_COLUMNS)
    games_frame = play_games(a, b, games, seed, rules, start or sim.NEW_GAME)
    return game_summary(games_frame).assign(group="a")[MODE_COLUMNS]
