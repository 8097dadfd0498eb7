"""Hand scoring against the worked examples of RULES §6."""

import pytest

from ginsim import Rules
from ginsim.game.scoring.hand_scoring_nb import (
    OUT_BIG_GIN,
    OUT_GIN,
    OUT_KNOCK,
    OUT_UNDERCUT,
    score_hand_nb,
)
from ginsim.game.state import ENDING_BIG_GIN, ENDING_KNOCK

MODERN = Rules().packed()


@pytest.mark.parametrize("k,d,expected", [
    (3, 15, (OUT_KNOCK, 12, 0)),  # the layoff example
    (0, 45, (OUT_GIN, 70, 0)),  # gin against 45
    (10, 2, (OUT_UNDERCUT, 0, 33)),  # undercut: 8 + 25
    (10, 10, (OUT_UNDERCUT, 0, 25)),  # a tie is an undercut: 0 + 25
    (9, 32, (OUT_KNOCK, 23, 0)),
    (3, 16, (OUT_KNOCK, 13, 0)),
    (9, 2, (OUT_UNDERCUT, 0, 32)),  # 7 + 25
])
def test_worked_examples(k, d, expected):
    assert score_hand_nb(ENDING_KNOCK, k, d, MODERN) == expected


def test_presets_change_bonuses():
    classic = Rules.preset("classic").packed()
    assert score_hand_nb(ENDING_KNOCK, 0, 45, classic) == (OUT_GIN, 65, 0)
    assert score_hand_nb(ENDING_KNOCK, 10, 2, classic) == (OUT_UNDERCUT, 0, 18)
    palace = Rules.preset("palace").packed()
    assert score_hand_nb(ENDING_KNOCK, 10, 2, palace) == (OUT_UNDERCUT, 0, 28)


def test_tie_without_undercut_scores_nothing():
    rules = Rules(undercut_on_tie=False).packed()
    assert score_hand_nb(ENDING_KNOCK, 7, 7, rules) == (OUT_KNOCK, 0, 0)


def test_big_gin():
    rules = Rules(big_gin_bonus=31).packed()
    assert score_hand_nb(ENDING_BIG_GIN, 0, 40, rules) == (OUT_BIG_GIN, 71, 0)
