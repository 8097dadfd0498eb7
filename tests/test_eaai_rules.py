"""The ``eaai`` rules preset: the EAAI challenge framework's referee (docs/rules.md §8, item 9).

Its facts (the framework's constants and its referee loop): knock at 10 or less, gin
25 + D, undercut 25 + (K - D) with a tie an undercut, no big gin, a hand dead when two
cards are left in the stock and then dealt again by the same starting player, the
starting player alternating after every scored hand, a game to 100 counting hand points
only, and the defender's own melds (its choice) laid before the referee lays off what
is left.
"""

import numpy as np

from ginsim import Rules, layoff_deadwood
from ginsim.analysis.game_stats import play_games
from ginsim.game.scoring.game_scoring import HandResult, score_game
from ginsim.game.scoring.hand_scoring_nb import OUTCOMES
from ginsim.simulator.play.game_records import play_game_hands

EAAI = Rules.preset("eaai")
KNOCK, GIN, UNDERCUT, DEAD = (OUTCOMES.index(o) for o in ("knock", "gin", "undercut", "dead"))


def test_the_framework_constants() -> None:
    assert (EAAI.knock_limit, EAAI.gin_bonus, EAAI.undercut_bonus) == (10, 25, 25)
    assert EAAI.undercut_on_tie and EAAI.big_gin_bonus is None
    assert EAAI.stock_floor == 2 and EAAI.deal == "upcard" and EAAI.target == 100
    assert Rules.coerce("eaai") == EAAI and EAAI.spec() == "eaai"


def test_a_game_counts_hand_points_only() -> None:
    hands = [HandResult(0, 40, GIN), HandResult(-1, 0, DEAD), HandResult(1, 27, UNDERCUT),
             HandResult(0, 61, KNOCK)]
    score = score_game(hands, EAAI)
    assert score.winner == 0 and score.hands == 4
    assert score.points == (101, 27) and score.scores == (101, 27) and score.margin == 74
    shutout = score_game([HandResult(1, 60, GIN), HandResult(1, 45, KNOCK)], EAAI)
    assert shutout.shutout and shutout.scores == (0, 105)  # no shutout bonus either


def test_the_defender_melds_before_laying_off() -> None:
    # Knocker 4H 5H 6H. The defender's best own melds are the four sevens (8H left, which
    # fits nothing alone); laying 7H and then 8H off instead would leave 0.
    knocker, defender = ["4H 5H 6H"], "7H 8H 7D 7C 7S"
    assert layoff_deadwood(knocker, defender, EAAI) == 8
    assert layoff_deadwood(knocker, defender, Rules()) == 0


def test_starting_player_alternates_and_a_dead_hand_is_dealt_again() -> None:
    records, meta = play_game_hands("simple", "simple", 150, seed=5, rules=EAAI)
    seen_dead = 0
    for g in np.unique(meta[:, 0]):
        rows = records[meta[:, 0] == g]
        for prev, nxt in zip(rows[:-1], rows[1:], strict=True):
            seen_dead += prev["outcome"] == DEAD
            expected = prev["dealer"] if prev["outcome"] == DEAD else 1 - prev["dealer"]
            assert nxt["dealer"] == expected
    assert seen_dead > 0
    games = play_games("simple", "simple", 150, seed=5, rules=EAAI)
    assert (games["score_a"] == games["points_a"]).all()
    assert (games["score_b"] == games["points_b"]).all()
    assert (games[["score_a", "score_b"]].max(axis=1) >= 100).all()
