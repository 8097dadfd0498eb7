"""The table an mc seat plays a game by: the chance of winning a game to the rules'
target from each score, for two players of equal strength whose hands score as
``expert`` against ``expert`` does under those rules
(:func:`ginsim.game.scoring.win_chance.win_chance_table` over a fixed sample of hands)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...game.rules import Rules
from ...game.scoring.win_chance import win_chance_table
from ..play.engine import play_records

SAMPLE_HANDS = 20_000  # hands whose points make the table (about 0.2 s, warm)
SAMPLE_SEED = 20_261_202


@lru_cache(maxsize=16)
def _table(rules: Rules) -> np.ndarray:
    records, _ = play_records("expert", "expert", stop=SAMPLE_HANDS, seed=SAMPLE_SEED,
                              rules=rules)
    points = (records["points_a"] + records["points_b"]).astype(np.int64)
    table = win_chance_table(points[points > 0], rules.target)
    table.flags.writeable = False
    return table


def game_win_table(rules: Rules | str | None = None) -> np.ndarray:
    """``W[a, b]``: the chance of winning a game to ``rules.target`` from ``a`` points
    against ``b`` (read-only; computed once per rules in a process)."""
    return _table(Rules.coerce(rules))
