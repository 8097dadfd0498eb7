"""Defender layoffs and the knocker's arrangement (RULES §5.2)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import ALL_MELDS, parse, ref_layoff_deadwood, ref_min_deadwood

from ginsim import Rules, layoff_deadwood
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import cards_to_mask, mask_to_cards
from ginsim.game.layoff_nb import knocker_arrangement_nb, layoff_reach_nb
from ginsim.game.melds_nb import WORK_SIZE

KNOCKER = ["7S 7H 7D", "4C 5C 6C", "JH QH KH"]


def test_rules_worked_example():
    # RULES §6: 7C and 3C lay off, D = 15.
    assert layoff_deadwood(KNOCKER, "9S 9H 9D 2H 3H 4H 7C 3C QS 5D") == 15


def test_chains_both_ends():
    assert layoff_deadwood(["4C 5C 6C"], "7C 8C 2C 3C KD") == 10
    # 7C fits both the set of sevens and the club run: only the run lets 8C follow.
    assert layoff_deadwood(["7S 7H 7D", "4C 5C 6C"], "7C 8C KD") == 10


def test_no_layoff_onto_four_card_set_or_around_the_corner():
    assert layoff_deadwood(["7S 7H 7D 7C"], "8C 9D") == 17
    assert layoff_deadwood(["JS QS KS"], "AS 2S") == 3


def test_breaking_own_meld_to_lay_off():
    # Own 5555 plus 6H: meld 555 (three of them), lay off 5H and 6H onto 2H3H4H.
    assert layoff_deadwood(["2H 3H 4H"], "5S 5H 5D 5C 6H") == 0


def test_two_order_heuristics_versus_optimal():
    # Optimal: meld 7S 7H 7D, lay 5H 6H onto 2H3H4H, keep 8H: D = 8. Melds first takes
    # the larger own meld 5H-8H (26 > 21) and keeps 7S 7D (14); layoffs first lays
    # 5H-8H off and keeps 7S 7D (14): both heuristics miss the optimum.
    knocker = ["2H 3H 4H"]
    defender = "5H 6H 7H 7S 7D 8H"
    assert ref_layoff_deadwood([parse(m) for m in knocker], parse(defender)) == 8
    assert layoff_deadwood(knocker, defender) == 8
    assert layoff_deadwood(knocker, defender, Rules(layoff="layoffs_first")) == 14
    assert layoff_deadwood(knocker, defender, Rules(layoff="melds_first")) == 14
    assert layoff_deadwood(knocker, defender, Rules(layoff="two_orders")) == 14
    # Melds first keeps 6S6H6D6C and 5C (5); layoffs first lays 6C, 5C onto 7C8C9C and
    # melds 6S6H6D (0): the two orders differ, and two_orders takes the better.
    hand = "6S 6H 6D 6C 5C"
    assert layoff_deadwood(["7C 8C 9C"], hand, Rules(layoff="melds_first")) == 5
    assert layoff_deadwood(["7C 8C 9C"], hand, Rules(layoff="layoffs_first")) == 0
    assert layoff_deadwood(["7C 8C 9C"], hand, Rules(layoff="two_orders")) == 0


def _knocker_and_defender():
    @st.composite
    def build(draw):
        melds = []
        used = set()
        for _ in range(draw(st.integers(1, 3))):
            meld = draw(st.sampled_from([m for m in ALL_MELDS if len(m) <= 5 and not m & used]))
            melds.append(sorted(meld))
            used |= meld
        near = sorted({c for c in range(52) if c not in used and any(
            abs(c - u) <= 2 or c % 13 == u % 13 for u in used)})
        pool = draw(st.permutations(near))[:7]
        rest = [c for c in range(52) if c not in used and c not in pool]
        n = draw(st.integers(7, 10))
        fill = draw(st.permutations(rest))[: max(0, n - len(pool))]
        return melds, sorted((pool + fill)[:n])
    return build()


@given(_knocker_and_defender())
def test_layoff_deadwood_matches_reference(case):
    melds, defender = case
    assert layoff_deadwood(melds, defender) == ref_layoff_deadwood(melds, defender)


@given(_knocker_and_defender())
def test_heuristics_never_beat_optimal(case):
    melds, defender = case
    best = layoff_deadwood(melds, defender)
    own = ref_min_deadwood(defender)
    for mode in ("melds_first", "layoffs_first", "two_orders"):
        value = layoff_deadwood(melds, defender, Rules(layoff=mode))
        assert best <= value <= max(own, value)
    assert layoff_deadwood(melds, defender, Rules(layoff="melds_first")) <= own


def test_knocker_picks_least_exposed_arrangement():
    tab = card_tables()
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    # Two arrangements leave KS KH 2C (22): {5S5H5C5D, 6D7D8D} exposes 9D TD JD QD KD
    # (5 unseen cards, the run's low end 5D is the knocker's own); {5S5H5C, 5D6D7D8D}
    # exposes AD..4D and 9D..KD (9). The knocker lays down the first.
    hand = cards_to_mask(parse("5S 5H 5C 5D 6D 7D 8D KS KH 2C"))
    unseen = ((1 << 52) - 1) & ~hand
    dw, nk = knocker_arrangement_nb(hand, unseen, tab, work, out)
    assert dw == 22
    assert sorted(sorted(mask_to_cards(m)) for m in out[:nk]) == sorted(
        [sorted(parse("5S 5H 5C 5D")), sorted(parse("6D 7D 8D"))])
    assert bin(layoff_reach_nb(out, nk, unseen, tab)).count("1") == 5
    # When the upper diamonds are seen (in the pile), the run exposes nothing above 8D
    # and both arrangements tie at 0 vs 4 exposed: still the 4-card set.
    seen = cards_to_mask(parse("9D"))
    dw, nk = knocker_arrangement_nb(hand, unseen & ~seen, tab, work, out)
    assert bin(layoff_reach_nb(out, nk, unseen & ~seen, tab)).count("1") == 0


def test_bad_knocker_melds_rejected():
    with pytest.raises(ValueError, match="not a meld"):
        layoff_deadwood(["7S 7H 8D"], "9S")
    with pytest.raises(ValueError, match="both in the knocker's melds and in the defender"):
        layoff_deadwood(["7S 7H 7D"], "7S 9S")
    with pytest.raises(ValueError, match="list of melds"):
        layoff_deadwood("7S 7H 7D", "9S")
