"""The chance of winning a game from its score, and the mc player that plays by it
(``game=1``): the table against an absorbing Markov chain solved by linear algebra and
against games played out at random, and the player's use of the scores it is told."""

import numpy as np
import pytest

import ginsim
from ginsim.game.rules import Rules
from ginsim.game.scoring.game_scoring import pack_game_rules
from ginsim.game.scoring.win_chance import win_chance_table
from ginsim.simulator.machine.buffers import new_mc_memory
from ginsim.simulator.play.engine import play_records
from ginsim.simulator.play.games_nb import game_scores_nb
from ginsim.simulator.search.rollouts_nb import world_value_nb
from ginsim.simulator.search.win_table import game_win_table
from ginsim.table.agents import Agent, play_hand
from ginsim.table.table import Table

FAST = "mc:rollouts=8,particles=16,stages=3"


def _chain_solution(points: np.ndarray, target: int) -> np.ndarray:
    """The same chances as the absorbing Markov chain over (a, b) solved at once:
    x = Q x + r, with r the one-step chance of reaching the target first."""
    values, counts = np.unique(points, return_counts=True)
    p = counts / (2.0 * counts.sum())
    n = target * target
    q = np.zeros((n, n))
    r = np.zeros(n)
    for a in range(target):
        for b in range(target):
            i = a * target + b
            for k, pk in zip(values, p, strict=True):
                if a + k >= target:
                    r[i] += pk
                else:
                    q[i, (a + k) * target + b] += pk
                if b + k < target:
                    q[i, a * target + b + k] += pk
    return np.linalg.solve(np.eye(n) - q, r).reshape(target, target)


@pytest.mark.parametrize("points,target", [([1, 3, 3, 7], 9), ([2, 25, 31, 12, 5], 40)])
def test_the_table_solves_the_chain(points, target):
    table = win_chance_table(np.array(points), target)
    np.testing.assert_allclose(table, _chain_solution(np.array(points), target), atol=1e-12)


def test_the_table_against_games_played_at_random():
    """Games from 60 against 80 to 100, hands drawn from a fixed list: the share won
    lies in the 99.9% interval around the table's chance."""
    points = np.array([4, 9, 15, 22, 27, 33, 41])
    table = win_chance_table(points, 100)
    rng = np.random.default_rng(5)
    games, won = 20_000, 0
    for _ in range(games):
        a, b = 60, 80
        while a < 100 and b < 100:
            k = points[rng.integers(len(points))]
            if rng.random() < 0.5:
                a += k
            else:
                b += k
        won += a >= 100
    w = table[60, 80]
    half = 3.29 * np.sqrt(w * (1 - w) / games)
    assert abs(won / games - w) < half, (won / games, w)


def test_the_table_is_fair_and_monotone():
    table = game_win_table("modern")
    assert table.shape == (100, 100)
    np.testing.assert_allclose(table + table.T, 1.0, atol=1e-12)  # equal players
    assert table[0, 0] == pytest.approx(0.5)
    assert np.all(np.diff(table, axis=0) >= -1e-12)  # more points, more chance
    assert np.all(np.diff(table, axis=1) <= 1e-12)  # the other's points, less
    assert game_win_table(Rules(target=150)).shape == (150, 150)


def test_bad_hand_points_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        win_chance_table(np.array([0, 5]), 100)
    with pytest.raises(ValueError, match="target"):
        win_chance_table(np.array([5]), 0)
    with pytest.raises(ValueError, match="integer"):
        win_chance_table(np.array([2.5]), 100)


def test_a_world_is_worth_its_game_chance():
    """Points toward the score: a win that reaches the target is worth 1, a loss that
    lets the other reach it 0, anything else the table's chance from the new score;
    without ``game`` a world is worth its points."""
    table = game_win_table("modern")
    mem = new_mc_memory(table)
    sides = np.zeros((4, 3, 4), dtype=np.int64)
    sides[0, 0, 0], sides[0, 1, 0] = 70, 85  # seat a 70 points, seat b 85
    game_scores_nb(mem, sides, 0, pack_game_rules(Rules()))
    assert list(mem.scores) == [1, 70, 85]
    assert world_value_nb(mem, 0, 30, 1) == 1.0
    assert world_value_nb(mem, 0, 12, 1) == pytest.approx(table[82, 85])
    assert world_value_nb(mem, 0, -15, 1) == 0.0
    assert world_value_nb(mem, 1, -15, 1) == pytest.approx(table[85, 85])
    assert world_value_nb(mem, 1, 0, 1) == pytest.approx(table[85, 70])
    assert world_value_nb(mem, 0, 12, 0) == 12.0
    game_scores_nb(mem, sides, 1, pack_game_rules(Rules()))  # Hollywood: not known
    assert mem.scores[0] == 0
    small = new_mc_memory(game_win_table(Rules(target=150)))
    game_scores_nb(small, sides, 0, pack_game_rules(Rules()))  # a table for another target
    assert small.scores[0] == 0


def _hands(spec: str, scores: tuple[int, int], hands: int = 12) -> list[dict]:
    mc = Agent.from_spec(spec, "modern", seed=3)
    other = Agent.from_spec("simple", "modern", seed=4)
    return [play_hand(Table("modern", seed=9, hand=h, dealer=h % 2), [mc, other],
                      scores=scores) for h in range(hands)]


def test_an_agent_plays_for_the_score_it_is_told():
    """With both seats 5 points from the target the play changes; with game=0, or scores
    the rules' target cannot hold, it is the same as from 0 to 0."""
    start = _hands(FAST, (0, 0))
    assert _hands(FAST, (95, 95)) != start
    assert _hands(f"{FAST},game=0", (95, 95)) == _hands(f"{FAST},game=0", (0, 0))
    assert _hands(FAST, (0, 140)) == _hands(f"{FAST},game=0", (0, 0))


def test_game_1_plays_differently_in_games_only():
    """Single hands have no game score: game makes no difference there; in games it
    changes the play, and games stay reproducible."""
    a = play_records(FAST, "simple", stop=30, seed=8)[0]
    b = play_records(f"{FAST},game=0", "simple", stop=30, seed=8)[0]
    assert np.array_equal(a, b)
    game = ginsim.play_games(FAST, "simple", games=6, seed=1)
    assert game.equals(ginsim.play_games(FAST, "simple", games=6, seed=1))
    assert not game.equals(ginsim.play_games(f"{FAST},game=0", "simple", games=6, seed=1))
