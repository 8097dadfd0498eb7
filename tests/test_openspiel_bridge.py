"""The OpenSpiel bridge (adapters/openspiel/ginsim_bot.py): ginsim strategies as a
``pyspiel.Bot`` in OpenSpiel's ``gin_rummy``, against OpenSpiel's own simple bot.

Skipped without ``open_spiel`` (``pip install ginsim[openspiel]``). About 20 s: 300 hands
against the simple bot (every action legal, no desync between the bot's view and the
state), and 400 hands of ginsim's simple (250 of gin-only memory2, which reaches the
wall) in both seats, whose outcome shares and points must agree with
``ginsim.simulate`` under the mapped rules (:func:`openspiel_rules`): a wrong
translation of the state or of the rules would move them.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adapters" / "openspiel"))

from ginsim_bot import openspiel_rules, play_hands, to_ginsim  # noqa: E402

from ginsim import Rules, simulate  # noqa: E402
from ginsim.analysis.intervals import mean_interval, wilson_interval  # noqa: E402
from ginsim.game.cards import card_text  # noqa: E402


def test_cards_and_rules_map() -> None:
    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()
    for card in range(52):
        text = state.action_to_string(0, card).split("Action: ")[1]
        assert card_text(to_ginsim(card)) == text.upper()
    rules = openspiel_rules(game.get_parameters())
    assert rules == Rules.preset("single_hand").with_(undercut_on_tie=False,
                                                      last_discard_rule=True)
    assert openspiel_rules({"knock_card": 7, "gin_bonus": 20}).knock_limit == 7
    oklahoma = openspiel_rules({"oklahoma": True})
    assert oklahoma.oklahoma and oklahoma.aces_must_gin and oklahoma.double_suits == ""
    with pytest.raises(ValueError, match="hand_size"):
        openspiel_rules({"hand_size": 7})


def test_against_openspiel_simple_bot() -> None:
    hands = play_hands("memory2", "openspiel_simple", 300, seed=1)
    points = np.array([h["points"] for h in hands])
    assert len(points) == 300 and {h["seat"] for h in hands} == {0, 1}
    assert {h["outcome"] for h in hands} >= {"knock", "undercut"}
    mean, low, high = mean_interval(points)
    assert high > 0  # memory2 does not lose to it (measured: +2.2 +- 1.0 over 2,000 hands)


@pytest.mark.parametrize("strategy,count", [("simple", 400), ("memory2:knock=0", 250)])
def test_the_same_strategy_in_both_seats_matches_simulate(strategy: str, count: int) -> None:
    # gin-only play (knock=0) reaches OpenSpiel's wall in about 7% of the hands: the
    # last-discard decision (take the final discard to go gin, or end the hand dead)
    rules = openspiel_rules(pyspiel.load_game("gin_rummy").get_parameters())
    hands = play_hands(strategy, strategy, count, seed=2)
    assert strategy == "simple" or any(h["outcome"] == "dead" for h in hands)
    ref = simulate(strategy, strategy, hands=100_000, seed=3, rules=rules, n_jobs=1)
    ref_abs = np.abs(ref["points_a"].to_numpy() - ref["points_b"].to_numpy())
    mine_abs = np.abs([h["points"] for h in hands])
    _, low, high = mean_interval(mine_abs)
    assert low - 0.2 <= ref_abs.mean() <= high + 0.2
    for outcome in ("gin", "undercut", "dead"):
        k = sum(h["outcome"] == outcome for h in hands)
        low, high = wilson_interval(k, len(hands))
        share = float((ref["outcome"] == outcome).mean())
        assert float(low) - 0.005 <= share <= float(high) + 0.005, (outcome, k, share)
