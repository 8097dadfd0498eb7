"""``layoff='layoffs_first'`` is the literal greedy order: it may leave the defender more
deadwood than not laying off at all (documented on ``Rules.layoff``); every other mode
never ends above the no-layoff deadwood."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ginsim
from ginsim import Rules, deadwood, layoff_deadwood
from ginsim.game.cards import format_cards, mask_to_cards
from ginsim.game.melds import meld_table
from ginsim.game.rules import LAYOFF_MODES

MELDS = [mask_to_cards(m) for m in meld_table()]


def greedy_layoffs_first(knocker: list[list[int]], defender: list[int]) -> int:
    """Reference: lay off every card that fits (4th card of a set, run ends, chains),
    then the best melds of what is left."""
    hand = set(defender)
    gone: set[int] = set()
    for meld in knocker:
        ranks = {c % 13 for c in meld}
        if len(ranks) == 1:
            if len(meld) == 3:
                gone |= {c for c in hand if c % 13 == meld[0] % 13}
            continue
        suit, low, high = meld[0] // 13, min(ranks), max(ranks)
        while low > 0 and suit * 13 + low - 1 in hand:
            low -= 1
            gone.add(suit * 13 + low)
        while high < 12 and suit * 13 + high + 1 in hand:
            high += 1
            gone.add(suit * 13 + high)
    return deadwood(sorted(hand - gone))


def test_the_documented_example():
    knocker, defender = ["4H 5H 6H"], "7H 7D 7C KS"
    assert deadwood(defender) == 10  # 7D 7C 7H melded, KS left
    assert layoff_deadwood(knocker, defender, Rules(layoff="layoffs_first")) == 24
    for mode in ("optimal", "melds_first", "two_orders"):
        assert layoff_deadwood(knocker, defender, Rules(layoff=mode)) == 10
    assert "7H 7D 7C KS" in Rules.__doc__ and "24 left instead of 10" in Rules.__doc__


@st.composite
def showdowns(draw):
    """Disjoint knocker melds (1-3) and a defender hand of 4-10 other cards."""
    knocker: list[list[int]] = []
    used: set[int] = set()
    for meld in draw(st.lists(st.sampled_from(MELDS), min_size=1, max_size=3)):
        if not used & set(meld):
            knocker.append(meld)
            used |= set(meld)
    rest = [c for c in range(52) if c not in used]
    defender = draw(st.lists(st.sampled_from(rest), min_size=4, max_size=10, unique=True))
    return knocker, defender


@settings(max_examples=200, deadline=None)
@given(showdowns())
def test_layoff_modes_against_the_no_layoff_deadwood(case):
    knocker, defender = case
    melds = [format_cards(m) for m in knocker]
    before = deadwood(defender)
    after = {m: layoff_deadwood(melds, defender, Rules(layoff=m)) for m in LAYOFF_MODES}
    assert after["layoffs_first"] == greedy_layoffs_first(knocker, defender)
    for mode in ("optimal", "melds_first", "two_orders"):
        assert after[mode] <= before
    assert after["optimal"] <= min(after.values())
    assert after["two_orders"] == min(before, after["melds_first"], after["layoffs_first"])


def test_records_show_it_only_under_layoffs_first():
    rows = {}
    for mode in ("layoffs_first", "two_orders", "optimal"):
        hands = ginsim.simulate("simple", "simple", 4_000, 5, Rules(layoff=mode), n_jobs=1)
        shown = hands[hands.outcome.isin(["knock", "undercut"])]
        rows[mode] = int((shown.defender_deadwood > shown.defender_deadwood_before_layoff)
                         .sum())
        gins = hands[hands.outcome == "gin"]
        assert np.array_equal(gins.defender_deadwood, gins.defender_deadwood_before_layoff)
    assert rows["layoffs_first"] > 0 and rows["two_orders"] == rows["optimal"] == 0
