"""The mc player learns its opponent within a game (``learn``): each hand's posterior
weights over the mixture's models become the next hand's prior; a new game, and every
single hand outside a game, starts from the prior again."""

import numpy as np
import pytest

import ginsim
from ginsim.simulator.play.engine import play_records
from ginsim.simulator.search.mc_memory_nb import LEARN_FLOOR
from ginsim.table.agents import Agent, play_hand
from ginsim.table.table import Table

FAST = "mc:rollouts=8,particles=16,stages=3"
SLOT = {"expert": 0, "simple": 1, "memory2": 2, "memory2:knock=0": 3}  # the mc preset's


def _play(mc: Agent, opponent: Agent, hands: int) -> list[np.ndarray]:
    """Play ``hands`` hands of one game; mc's model weights at its last choice of each."""
    weights = []
    for h in range(hands):
        play_hand(Table("modern", seed=5, hand=h, dealer=h % 2), [mc, opponent])
        weights.append(np.exp(mc.mem.log_prior[:mc.mem.n_models[0]]))
    return weights


@pytest.mark.parametrize("opponent", ["simple", "memory2:knock=0"])
def test_the_prior_moves_to_the_opponent_within_a_game(opponent):
    """The first hand starts from equal weights; by the fourth the model that plays
    the opponent holds at least 90% of the prior, and no model falls below the floor."""
    mc = Agent.from_spec(FAST, "modern", seed=3)
    weights = _play(mc, Agent.from_spec(opponent, "modern", seed=4), 4)
    assert weights[-1].argmax() == SLOT[opponent]
    assert weights[-1][SLOT[opponent]] >= 0.9, weights
    assert weights[-1].min() >= np.exp(-LEARN_FLOOR) / 2
    assert mc.mem.learned.max() == 0.0 and mc.mem.learned.min() >= -LEARN_FLOOR
    # a referee that hands the agent back between hands repeats the game's start: kept
    start = {"type": "start", "protocol": 1, "rules": "modern", "seat": 0, "game": 1}
    mc.handle(start)
    assert not mc.mem.learned.any()  # a start after hands without one: a game of its own
    _play(mc, Agent.from_spec(opponent, "modern", seed=4), 2)
    learned = mc.mem.learned.copy()
    assert learned.any()
    mc.handle(start)
    assert np.array_equal(mc.mem.learned, learned)
    # another game forgets the opponent: the first choice of its first hand sees the prior
    mc.handle({**start, "game": 2})
    assert not mc.mem.learned.any()


def test_learn_0_keeps_the_prior():
    mc = Agent.from_spec(f"{FAST},learn=0", "modern", seed=3)
    weights = _play(mc, Agent.from_spec("simple", "modern", seed=4), 3)
    assert np.all(weights[-1] > 0.01)  # the last choice's prior: only its own hand's moves
    assert not mc.mem.learned.any()


def test_single_hands_learn_nothing():
    """Outside a game every hand is its own (records do not depend on the hands before,
    so chunking cannot change them): learn makes no difference there."""
    a = play_records(FAST, "simple", stop=40, seed=8)[0]
    b = play_records(f"{FAST},learn=0", "simple", stop=40, seed=8)[0]
    assert np.array_equal(a, b)


def test_games_learn():
    """In games the learned prior changes the play, and games stay reproducible."""
    learn = ginsim.play_games(FAST, "simple", games=6, seed=1)
    again = ginsim.play_games(FAST, "simple", games=6, seed=1)
    still = ginsim.play_games(f"{FAST},learn=0", "simple", games=6, seed=1)
    assert learn.equals(again)
    assert not learn.equals(still)
