"""Exact deadwood, best discard and arrangements against the brute-force reference."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import (
    ALL_MELDS,
    meld_dense_hands,
    parse,
    random_hands,
    ref_best_discard,
    ref_min_deadwood,
    ref_min_deadwood_arrangements,
)

from ginsim import best_discard, best_melds, deadwood, format_cards, parse_cards
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import cards_to_mask
from ginsim.game.melds_nb import (
    MAX_NODES,
    W_DISCARD,
    W_MELDS,
    WORK_SIZE,
    best_discard_nb,
    candidate_melds_nb,
    min_deadwood_nb,
    packings_nb,
)

TAB = card_tables()


def fast_min_deadwood(cards):
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    return int(min_deadwood_nb(cards_to_mask(cards), TAB, work))


def test_meld_table_has_329_melds():
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    n = candidate_melds_nb((1 << 52) - 1, TAB, work)
    assert n == 329 == len(ALL_MELDS)
    found = {int(m) for m in work[W_MELDS:W_MELDS + n]}
    assert found == {cards_to_mask(m) for m in ALL_MELDS}


@pytest.mark.parametrize("text,expected", [
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0),
    ("KS KH KD KC QS QH QD QC JS JH", 10),
    ("AS 2S 3S 7H 7D 7C 9C TC JC KD", 10),
    ("7S 7H 7D 7C 8C 9C 5S 6S", 11),  # 4-set loses to set + run 7C8C9C
    ("2H 3H 4H 5H 5S 5D 5C", 0),  # 2-3-4H + 5555
    ("", 0),
])
def test_worked_deadwood(text, expected):
    assert deadwood(text) == expected
    assert ref_min_deadwood(parse(text)) == expected


@given(st.one_of(random_hands(10), meld_dense_hands(10)))
def test_min_deadwood_10_matches_reference(cards):
    assert fast_min_deadwood(cards) == ref_min_deadwood(cards) == deadwood(cards)


@given(st.one_of(random_hands(11), meld_dense_hands(11)))
def test_min_deadwood_11_matches_reference(cards):
    assert fast_min_deadwood(cards) == ref_min_deadwood(cards) == deadwood(cards)


@given(st.one_of(meld_dense_hands(14), random_hands(16)))
def test_deadwood_of_larger_hands(cards):
    assert deadwood(cards) == ref_min_deadwood(cards)


def test_full_deck_is_all_melded():
    assert deadwood(list(range(52))) == 0
    assert deadwood(list(range(52))[:-1]) == 0  # KC missing: the clubs A..Q run still melds


@given(st.one_of(random_hands(11), meld_dense_hands(11)))
def test_best_discard_matches_reference(cards):
    card, dw = best_discard(cards)
    ref_card, ref_dw = ref_best_discard(cards)
    assert (parse_cards(card)[0], dw) == (ref_card, ref_dw)


@given(meld_dense_hands(11), st.integers(0, 10))
def test_best_discard_with_forbidden_card(cards, k):
    forbidden = cards[k]
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    dw, card, _, _ = best_discard_nb(cards_to_mask(cards), 1 << forbidden, 0, TAB, work, False)
    assert (int(card), int(dw)) == ref_best_discard(cards, forbidden=forbidden)


@given(st.one_of(random_hands(11), meld_dense_hands(11)), st.integers(0, 10))
def test_per_card_deadwood_matches_reference(cards, k):
    """The per-card table the memory discards read: the deadwood kept after each allowed
    discard, exact (brute force), the card taken from the pile excluded."""
    forbidden = cards[k]
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    best_discard_nb(cards_to_mask(cards), 1 << forbidden, 0, TAB, work, True)
    for c in cards:
        if c != forbidden:
            kept = [x for x in cards if x != c]
            assert work[W_DISCARD + c] == ref_min_deadwood(kept), c


def test_best_discard_tie_goes_to_higher_value_card():
    # 2S..4S meld; KH and QH both deadwood 10: higher index (KH) is shed on a value tie.
    card, dw = best_discard("2S 3S 4S 5D 6D 7D 8C 9C TC QH KH")
    assert card == "KH" and dw == 10
    # 5H vs KS: discarding the king (higher value) keeps less deadwood.
    assert best_discard("2S 3S 4S 5D 6D 7D 8C 9C TC 5H KS") == ("KS", 5)


@given(st.one_of(random_hands(10), meld_dense_hands(10), meld_dense_hands(11)))
def test_best_melds_is_an_optimal_arrangement(cards):
    arrangement = [frozenset(parse_cards(m)) for m in best_melds(cards)]
    optimal = ref_min_deadwood_arrangements(cards)
    assert sorted(map(sorted, arrangement)) in [sorted(map(sorted, o)) for o in optimal]


def test_packing_buffers_hold_the_densest_hands():
    # Eleven cards of one suit in a row: 45 runs, the most candidates 11 cards can hold.
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    hand = cards_to_mask(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"))
    n = candidate_melds_nb(hand, TAB, work)
    assert n == 45
    assert 0 < packings_nb(work, n) <= MAX_NODES


def test_published_mean_dealt_deadwood():
    # docs/references.md: mean about 56.6, sd about 13.8 for freshly dealt 10-card hands.
    rng = np.random.default_rng(7)
    values = np.array([fast_min_deadwood(rng.choice(52, 10, replace=False))
                       for _ in range(20_000)])
    se = values.std(ddof=1) / np.sqrt(len(values))
    assert abs(values.mean() - 56.6) < 4 * se + 0.05
    assert abs(values.std() - 13.8) < 0.4
    assert values.max() <= 98


def test_api_rejects_bad_input():
    with pytest.raises(ValueError, match="expected 11 cards"):
        best_discard("AS 2S 3S")
    with pytest.raises(ValueError, match="duplicate"):
        deadwood("AS AS")
    assert format_cards(parse_cards(best_melds("AS 2S 3S")[0])) == "AS 2S 3S"


def test_meld_table_built_once_per_run_shape():
    from ginsim.game import meld_table

    table = meld_table()
    assert len(table) == 329 and set(table.tolist()) == {cards_to_mask(m) for m in ALL_MELDS}
    assert len(meld_table("tedesco")) == 589
    assert meld_table() is not table and (meld_table() == table).all()
