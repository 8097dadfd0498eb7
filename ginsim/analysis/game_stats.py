"""Game-level tables: one row per game, and win probability and margin with 95% CIs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.inputs.specs import brief
from ..game.rules import Rules
from ..simulator.play import game_records as sim_games
from ..strategies.presets import Strategy
from .intervals import mean_interval, wilson_interval

GAME_COLUMNS = ("winner", "margin", "hands", "shutout")


def play_games(a: str | Strategy = "simple", b: str | Strategy = "simple", games: int = 1000,
               seed: int = 0, rules: Rules | str | None = None) -> pd.DataFrame:
    """Play games to the rules' target; one row per game.

    Columns: ``winner`` (``a``/``b``), ``score_a``, ``score_b`` (final totals with
    game, box and shutout bonuses), ``margin`` (winner minus loser), ``hands``,
    ``shutout``, ``points_a``/``points_b`` (hand points), ``boxes_a``/``boxes_b``.
    """
    rows = sim_games.game_records(a, b, games, seed, rules)
    frame = pd.DataFrame({name: rows[name] for name in rows.dtype.names})
    frame["winner"] = np.where(rows["winner"] == 0, "a", "b")
    return frame.drop(columns="game")


def game_summary(games: pd.DataFrame) -> pd.DataFrame:
    """Seat a's game-win probability (Wilson) and expected signed margin (normal) per game.

    Columns: ``statistic``, ``value``, ``low``, ``high``, ``n``.
    """
    if not isinstance(games, pd.DataFrame):
        raise ValueError(f"game_summary takes the DataFrame of play_games(), got "
                         f"{type(games).__name__}")
    missing = [c for c in GAME_COLUMNS if c not in games.columns]
    if missing:
        raise ValueError(f"game_summary needs the columns of play_games(); this DataFrame "
                         f"lacks {', '.join(missing)}")
    if games.empty:
        raise ValueError("game_summary needs at least one game; this DataFrame has no rows")
    unknown = sorted(set(games["winner"].astype(str)) - {"a", "b"})
    if unknown:
        raise ValueError(f"winner {brief(unknown[0])} is not a seat of play_games(): its "
                         f"winners are a and b")
    n = len(games)
    wins = int((games["winner"] == "a").sum())
    low, high = wilson_interval(wins, n)
    signed = np.where(games["winner"] == "a", games["margin"], -games["margin"])
    rows = [("p_a_wins_game", wins / n if n else np.nan, float(low), float(high), n)]
    rows.append(("mean_margin_a", *mean_interval(signed), n))
    rows.append(("mean_hands", *mean_interval(games["hands"].to_numpy()), n))
    shut = int(games["shutout"].sum())
    low, high = wilson_interval(shut, n)
    rows.append(("rate_shutout", shut / n if n else np.nan, float(low), float(high), n))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high", "n"])
