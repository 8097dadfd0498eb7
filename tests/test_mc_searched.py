"""The mc player's ``searched`` diagnostic: the choices left out of the search are its
rollout strategy's, hand for hand (pure knock charts draw no random numbers, so the
plays must match exactly), and the choices searched do move the play."""

import numpy as np
import pytest

from ginsim.game.scoring.hand_scoring_nb import OUTCOMES
from ginsim.simulator.play.engine import play_records
from ginsim.strategies import parse_strategy

FAST = "mc:rollouts=8,particles=8,stages=2"
KNOCKED = [OUTCOMES.index("knock"), OUTCOMES.index("undercut")]


def _records(spec: str, hands: int = 300) -> np.ndarray:
    return play_records(spec, "simple", stop=hands, seed=4)[0]


@pytest.mark.parametrize("chart", ["five", "always"])
def test_nothing_searched_plays_the_rollout_strategy(chart):
    assert np.array_equal(_records(f"{FAST},searched=0,rollout=expert:chart={chart}"),
                          _records(f"expert:chart={chart}"))


def test_the_knock_left_out_stays_the_rollout_strategys():
    """Searching only the draw and the discarded card (1 + 2), an mc player whose rollout
    strategy never knocks never knocks (it goes gin), and still plays other hands than
    that strategy; searching the knock too, it knocks."""
    never = _records(f"{FAST},searched=3,rollout=expert:chart=gin_only")
    mc_knocks = np.isin(never["outcome"], KNOCKED) & (never["knocker"] == 0)
    assert not mc_knocks.any()
    assert not np.array_equal(never, _records("expert:chart=gin_only"))
    every = _records(f"{FAST},searched=7,rollout=expert:chart=gin_only")
    assert (np.isin(every["outcome"], KNOCKED) & (every["knocker"] == 0)).any()


@pytest.mark.parametrize("spec,match", [
    ("mc:searched=8", r"0\.\.7"),
    ("mc:searched=2.5", "whole number"),
    ("expert:searched=3", "applies only to the mc strategy"),
])
def test_bad_searched_is_refused(spec, match):
    with pytest.raises(ValueError, match=match):
        parse_strategy(spec)
