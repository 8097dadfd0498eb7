"""``ginsim match`` in tables: the refereed games as frames, and their statistics.

The statistics are those of ``ginsim games`` (:func:`~.games.game_summary`: side a's
game-win probability with its Wilson 95% interval, the mean margin, hands per game,
shutouts) and the mean points per hand of each side and of a minus b (normal 95%
intervals), with the forfeits counted per side.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from ..game.rules import Rules
from ..table.referee import MatchResult, play_match
from .game_stats import game_summary
from .intervals import mean_interval

MATCH_COLUMNS = ["statistic", "value", "low", "high", "n"]


def match_frames(result: MatchResult) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games, hands): one row per game (the columns of ``play_games`` and ``forfeit``,
    the side at fault or empty, and ``fault``, its line) and one per hand."""
    games = pd.DataFrame(result.games)
    hands = pd.DataFrame(result.hands, columns=["game", "hand", "dealer", "outcome",
                                                "knocker", "points_a", "points_b"])
    return games, hands


def match_summary(result: MatchResult) -> pd.DataFrame:
    """Tidy statistics of a match: ``statistic``, ``value``, ``low``, ``high``, ``n``."""
    games, hands = match_frames(result)
    out = game_summary(games)[MATCH_COLUMNS]
    rows = []
    if len(hands):
        a, b = hands["points_a"].to_numpy(float), hands["points_b"].to_numpy(float)
        for name, values in (("mean_points_a", a), ("mean_points_b", b),
                             ("mean_points_a_minus_b", a - b)):
            rows.append((name, *mean_interval(values), len(values)))
    for side in ("a", "b"):
        count = int((games["forfeit"] == side).sum())
        rows.append((f"forfeits_{side}", float(count), float("nan"), float("nan"), len(games)))
    return pd.concat([out, pd.DataFrame(rows, columns=MATCH_COLUMNS)], ignore_index=True)


def run_match(a: str, b: str, games: int, rules: Rules | str | None = None, seed: int = 0,
              timeout_ms: int = 1000, on_fault: Callable[[str], None] | None = None,
              on_record: Callable[[int, list[dict]], None] | None = None
              ) -> tuple[MatchResult, pd.DataFrame]:
    """Referee the games (:func:`ginsim.table.referee.play_match`; ``on_record`` gets
    each game's record) and summarise them."""
    result = play_match(a, b, games, rules, seed, timeout_ms, on_fault, on_record)
    return result, match_summary(result)
