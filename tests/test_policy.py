"""Crafted positions for each policy parameter (draw, discard memory, knock rules)."""

import numpy as np
import pytest
from hypothesis import given
from reference import ALL_MELDS, meld_dense_hands, parse, random_hands

from ginsim import Rules
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import cards_to_mask, mask_to_cards
from ginsim.game.state import (
    HS_SIZE,
    ST_DISCARDED,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PASSED,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_TAKEN,
)
from ginsim.simulator.machine.buffers import new_board
from ginsim.strategies import parse_strategy
from ginsim.strategies.hand_reading_nb import meld_completions_nb
from ginsim.strategies.policy_nb import (
    choose_discard_nb,
    knock_threshold_nb,
    pile_decision_nb,
    should_knock_nb,
    undercut_estimate_nb,
)
from ginsim.strategies.undercut_table import UNDERCUT_TABLE

TAB = card_tables()
RULES = Rules().packed()


def params(spec_a, spec_b="simple"):
    return np.stack([parse_strategy(spec_a).vector, parse_strategy(spec_b).vector])


def state(hand, pile="", stock_left=20, opp_taken="", opp_discarded="", opp_passed="",
          knock_limit=10):
    st = np.zeros(HS_SIZE, dtype=np.int64)  # the hand state: the position's fields
    st[ST_KNOCK_LIMIT] = knock_limit
    st[ST_HAND] = cards_to_mask(parse(hand))
    st[ST_PILE_MASK] = cards_to_mask(parse(pile))
    st[ST_PILE_LEN] = len(parse(pile))
    st[ST_POS] = 52 - stock_left
    st[ST_TAKEN + 1] = cards_to_mask(parse(opp_taken))
    st[ST_DISCARDED + 1] = cards_to_mask(parse(opp_discarded))
    st[ST_PASSED + 1] = cards_to_mask(parse(opp_passed))
    return st


SCRATCH = new_board()


def on(st):
    """The hand state ``st`` with the scratch of :data:`SCRATCH`, as the kernels take it."""
    return SCRATCH._replace(hs=st)


def discard(spec, hand11, **kw):
    """The discard chosen when knocking is off (knock=0 and no gin in these hands)."""
    spec += (",knock=0" if ":" in spec else ":knock=0")
    st = state(hand11, **kw)
    rng = np.zeros(3, dtype=np.uint64)
    card, dw, knock, big = choose_discard_nb(params(spec), 0, st[ST_HAND], 0, on(st), RULES,
                                             TAB, rng)
    return mask_to_cards(1 << int(card))[0], int(dw), bool(knock)


def take(spec, hand10, top, **kw):
    st = state(hand10, **kw)
    rng = np.zeros(3, dtype=np.uint64)
    result = pile_decision_nb(params(spec), 0, st[ST_HAND], parse(top)[0], on(st), RULES, TAB,
                              rng)
    return bool(result[0])


HAND_9H_TH = "AS 2S 3S 4S JD QD KD 9H TH 7C 7S"


def test_level1_keeps_live_run_draw_over_dead_pair():
    # Deadwood alone sheds TH (keeps 9H 7C 7S = 23, versus 26 after shedding a 7).
    assert discard("simple", HAND_9H_TH, pile="7H 7D")[:2] == (parse("TH")[0], 23)
    # Both other sevens dead: the pair has no outs, 9H TH has two (8H, JH).
    card, dw, _ = discard("memory1", HAND_9H_TH, pile="7H 7D")
    assert card in parse("7C 7S") and dw == 26
    # With the sevens live the pair is worth as much as the run draw: shed TH.
    assert discard("memory1", HAND_9H_TH, pile="2C 5H")[0] == parse("TH")[0]


def test_level2_does_not_feed_a_seven_after_opponent_took_one():
    # Deadwood alone sheds 7S (keeps 6D = 6, versus 7S = 7); both keep the same outs.
    hand = "AS 2S 3S JD QD KD 9H 9C 9D 7S 6D"
    assert discard("simple", hand)[0] == parse("7S")[0]
    assert discard("memory1", hand)[0] == parse("7S")[0]
    assert discard("memory2", hand)[0] == parse("7S")[0]
    # The opponent took 7H from the pile: a seven could feed its set.
    assert discard("memory2", hand, opp_taken="7H")[0] == parse("6D")[0]
    assert discard("memory1", hand, opp_taken="7H")[0] == parse("7S")[0]  # level 1 ignores it
    # A seven the opponent threw away itself makes 7S safe again.
    assert discard("memory2", hand, opp_taken="7H", opp_discarded="7C")[0] == parse("7S")[0]


def test_knock_schedule_by_stock_left():
    p = params("simple:knock=10/8/5/3")
    expect = {31: 10, 24: 10, 23: 8, 16: 8, 15: 5, 8: 5, 7: 3, 0: 3}
    for stock, threshold in expect.items():
        assert knock_threshold_nb(p, 0, state("AS", stock_left=stock)) == threshold
    p = params("simple:knock=10/8/5/3,edges=20/10/5")
    assert [knock_threshold_nb(p, 0, state("AS", stock_left=s))
            for s in (20, 19, 10, 9, 5, 4)] == [10, 8, 8, 5, 5, 3]


def test_strategy_never_exceeds_the_hands_knock_limit():
    p = params("simple:knock=30")
    assert knock_threshold_nb(p, 0, state("AS", knock_limit=7)) == 7


def test_wait_for_gin_when_undercut_likely():
    st = state("AS 2S 3S", stock_left=10)
    cautious = params("simple:undercut=0.05")
    risk_10 = undercut_estimate_nb(cautious, 0, 10, st)
    assert risk_10 == UNDERCUT_TABLE[10, 2] > 0.05
    rng = np.zeros(3, dtype=np.uint64)  # pure decisions draw nothing from it
    assert not should_knock_nb(cautious, 0, 10, st, RULES, rng)
    assert should_knock_nb(cautious, 0, 0, st, RULES, rng)  # gin is never refused
    assert should_knock_nb(params("simple"), 0, 10, st, RULES, rng)
    assert not rng.any()
    # Memory 2 counts the opponent's pickups as progress: higher estimate.
    st2 = state("AS 2S 3S", stock_left=10, opp_taken="5H 9C")
    level2 = params("memory2")
    assert undercut_estimate_nb(level2, 0, 10, st2) >= undercut_estimate_nb(level2, 0, 10, st)


def test_draw_policies():
    hand = "AS 2S 3S JD QD KD 9H 7C 5S 2H"
    # KH is in no meld; improve takes 2C? No: a low card that replaces the 9H lowers
    # deadwood, so `improve` takes AC, `meld` does not.
    assert not take("simple", hand, "AC")
    assert take("simple:draw=improve", hand, "AC")
    assert not take("simple:draw=improve", hand, "KH")
    # 4S extends the spade run: meld takes it, never does not.
    assert take("simple", hand, "4S")
    assert not take("simple:draw=never", hand, "4S")


def brute_completions(cards):
    hand = set(cards)
    out = set()
    for meld in ALL_MELDS:
        missing = meld - hand
        if len(missing) == 1 and len(meld & hand) >= 2:
            out |= missing
    return out


@given(random_hands(10))
def test_meld_completions_random(cards):
    assert set(mask_to_cards(meld_completions_nb(cards_to_mask(cards), TAB))) == \
        brute_completions(cards)


@given(meld_dense_hands(10))
def test_meld_completions_dense(cards):
    assert set(mask_to_cards(meld_completions_nb(cards_to_mask(cards), TAB))) == \
        brute_completions(cards)


@pytest.mark.parametrize("spec,match", [
    ("memory2:knock=10/8/5", "give one whole number or 4"),
    ("simple:edges=8/16/24", "strictly decreasing"),
    ("simple:draw=sometimes", "choose one of meld, improve, never"),
    ("simple:memory=3", "0..2"),
    ("simple:undercut=1.5", "0..1"),
    ("simple:outs=x", "expected a number"),
])
def test_bad_parameter_values(spec, match):
    with pytest.raises(ValueError, match=match):
        parse_strategy(spec)


def test_a_decision_writes_the_boards_scratch_and_not_the_position():
    # The meld scratch lives beside the hand state (a Board), not in it: deciding from a
    # position leaves every slot of the hand state as it was.
    board = new_board()
    st = state(HAND_9H_TH, pile="5C 8D", stock_left=15, opp_taken="QS")
    board.hs[:] = st
    rng = np.zeros(3, dtype=np.uint64)
    for spec in ("simple", "memory2", "expert"):
        choose_discard_nb(params(spec), 0, st[ST_HAND], 0, board, RULES, TAB, rng)
        pile_decision_nb(params(spec), 0, st[ST_HAND] & ~(1 << parse("7S")[0]),
                         parse("7D")[0], board, RULES, TAB, rng)
        assert np.array_equal(board.hs, st), spec
    assert board.work.any()
