"""The chance of winning a game from its score that the mc player plays by (``game=1``,
the game table of expert against expert made fair between equal players): its shape and
symmetry, the game table it is read from, and the player's use of the scores it is told."""

import numpy as np
import pytest

import ginsim
from ginsim.game.rules import Rules
from ginsim.game.scoring.game_scoring import pack_game_rules
from ginsim.simulator.machine.buffers import new_mc_memory
from ginsim.simulator.play.engine import play_records
from ginsim.simulator.play.games_nb import game_scores_nb
from ginsim.simulator.search.rollouts_nb import world_value_nb
from ginsim.simulator.search.win_table import game_win_table
from ginsim.table.agents import Agent, play_hand
from ginsim.table.table import Table

FAST = "mc:rollouts=8,particles=16,stages=3"


def test_the_table_is_fair_and_monotone():
    table = game_win_table("modern")
    assert table.shape == (100, 100)
    np.testing.assert_allclose(table + table.T, 1.0, atol=1e-12)  # equal players
    assert table[0, 0] == pytest.approx(0.5)
    assert np.all(np.diff(table, axis=0) >= -1e-12)  # more points, more chance
    assert np.all(np.diff(table, axis=1) <= 1e-12)  # the other's points, less
    assert game_win_table(Rules(target=150)).shape == (150, 150)


def test_the_table_is_the_game_tables_made_fair():
    """mc's table is the game table of expert against expert (the same hands), dealers
    averaged: W[a, b] is the mean of that table's chance from a-b and one minus its
    chance from b-a."""
    from ginsim.game.scoring.game_equity import hand_outcomes, solve_game_table
    from ginsim.simulator.search.win_table import SAMPLE_HANDS, SAMPLE_SEED

    records, _ = play_records("expert", "expert", stop=SAMPLE_HANDS, seed=SAMPLE_SEED)
    game = solve_game_table(hand_outcomes(records["dealer"], records["points_a"],
                                          records["points_b"], records["outcome"],
                                          records["multiplier"]), boot=0)
    table = game_win_table("modern")
    for a, b in [(0, 0), (85, 30), (30, 85), (99, 0), (50, 98)]:
        expected = (game.at("win", a, b) + 1 - game.at("win", b, a)) / 2
        assert table[a, b] == pytest.approx(expected, abs=1e-12)


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
