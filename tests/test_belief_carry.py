"""The belief carried from choice to choice (simulator/belief/carry_nb.py): its guesses
keep to the public record, it is used, and it reads the opponent as a fresh sample does."""

import numpy as np
import pytest

import ginsim
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import cards_to_mask, parse_cards
from ginsim.game.melds_nb import WORK_SIZE, min_deadwood_nb
from ginsim.game.rules import Rules
from ginsim.simulator.belief.posterior import BeliefTracker, sample_beliefs
from ginsim.simulator.machine.history_replay import parse_history

RULES = Rules()


@pytest.fixture(scope="module")
def table():
    return ginsim.positions("memory2", "memory2", 24, seed=17)


def tracked(table, particles: int, seed: int = 3):
    """Each position with the tracker's belief there (one tracker per hand)."""
    tracker, hand = None, None
    for r in table.itertuples():
        if r.hand != hand:
            tracker, hand = BeliefTracker("memory2", RULES, particles, seed=seed), r.hand
        hist = parse_history(r.history)
        mine = cards_to_mask(parse_cards(r.cards) + parse_cards(r.drawn))
        yield r, hist, mine, tracker.update(hist, mine), tracker


def test_carried_guesses_keep_to_the_public_record(table):
    updates, trackers = 0, {}
    for r, hist, mine, b, tracker in tracked(table, 64):
        trackers[id(tracker)] = tracker
        assert abs(b.weights.sum() - 1) < 1e-9
        for h in b.hands:
            h = int(h)
            assert bin(h).count("1") == 10, r.history
            assert h & hist.taken[1] == hist.taken[1]
            assert h & mine == 0 and h & hist.pile_mask == 0
        updates += 1
    assert updates > 100 and sum(t.carried for t in trackers.values()) > 0


def test_the_tracker_is_reproducible_and_carries_most_choices(table):
    first = [b.hands.copy() for *_, b, _ in tracked(table.head(40), 32, seed=5)]
    again = [b.hands for *_, b, _ in tracked(table.head(40), 32, seed=5)]
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    updates, trackers = 0, {}
    for *_, tracker in tracked(table, 32):
        updates += 1
        trackers[id(tracker)] = tracker
    carried = sum(t.carried for t in trackers.values())
    # every choice after a hand's first may carry; a few fall back to a fresh sample
    assert carried >= 0.8 * (updates - len(trackers))


def test_a_carried_belief_reads_the_opponent_as_a_fresh_one(table):
    # The carried particles and a fresh tempered sample of the same history estimate
    # the same posterior mean of the opponent's deadwood: per position within the two
    # estimates' standard errors (each weighted variance over its ESS) and a point of
    # bias, and on average within four standard errors of the mean difference.
    tab = card_tables(RULES)
    work = np.zeros(WORK_SIZE, dtype=np.int64)

    def mean_and_se2(b):
        dw = np.array([min_deadwood_nb(int(h), tab, work) for h in b.hands], dtype=float)
        mean = float(b.weights @ dw)
        ess = 1.0 / float((b.weights ** 2).sum())
        return mean, float(b.weights @ (dw - mean) ** 2) / ess

    diffs, variances = [], []
    for i, (r, hist, mine, b, _) in enumerate(tracked(table, 400)):
        if not 10 <= r.stock_left <= 20 or i % 3:
            continue
        carried, se2_c = mean_and_se2(b)
        fresh, se2_f = mean_and_se2(sample_beliefs(hist, mine, "memory2", RULES, 400, seed=i))
        se = np.sqrt(se2_c + se2_f)
        assert abs(carried - fresh) < 5 * se + 1.0, r.history
        diffs.append(carried - fresh)
        variances.append(se2_c + se2_f)
    assert len(diffs) >= 10
    assert abs(np.mean(diffs)) < 4 * np.sqrt(np.sum(variances)) / len(diffs) + 0.3
