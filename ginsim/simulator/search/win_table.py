"""The table an mc seat plays a game by: the chance of winning a game to the rules'
target from each score, the game table (:mod:`ginsim.game.scoring.game_equity`, the
one ``ginsim game-table`` shows and the score charts are made with) of ``expert``
against ``expert`` under those rules, from a fixed sample of hands: both dealers
averaged, and made fair between the seats (two players of equal strength)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...game.rules import Rules
from ...game.scoring.game_equity import hand_outcomes, solve_game_table
from ..play.engine import play_records

SAMPLE_HANDS = 20_000  # hands whose results make the table (about 0.3 s, warm)
SAMPLE_SEED = 20_261_202


@lru_cache(maxsize=16)
def _table(rules: Rules) -> np.ndarray:
    records, _ = play_records("expert", "expert", stop=SAMPLE_HANDS, seed=SAMPLE_SEED,
                              rules=rules)
    outcomes = hand_outcomes(records["dealer"], records["points_a"], records["points_b"],
                             records["outcome"], records["multiplier"], rules)
    win = solve_game_table(outcomes, rules, boot=0).win.mean(axis=0)  # the dealer cut
    table = np.ascontiguousarray((win + 1.0 - win.T) / 2.0)  # equal players: fair
    table.flags.writeable = False
    return table


def game_win_table(rules: Rules | str | None = None) -> np.ndarray:
    """``W[a, b]``: the chance of winning a game to ``rules.target`` from ``a`` points
    against ``b`` (read-only; computed once per rules in a process)."""
    return _table(Rules.coerce(rules))
