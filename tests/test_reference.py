"""Checks of the reference implementation (tests/reference.py) against hand-worked facts.

The expected numbers below are worked out by hand (arithmetic in the comments) or come
from RULES.md section 6, not from the code under test.
"""

import itertools

import pytest
from hypothesis import given, settings

try:
    from tests import reference as ref
except ImportError:  # tests/ itself on sys.path (pytest rootdir-less import)
    import reference as ref

P = ref.parse


# --- section 1: cards and values ------------------------------------------------------


def test_parse():
    # AS = 0*13+0; TD = 2*13+9 = 35; KC = 3*13+12 = 51; 9H = 13+8 = 21
    assert P("AS, 10d td KC 9h") == [0, 35, 35, 51, 21]
    assert P("") == []
    for bad in ("1S", "ZS", "AX", "11H"):
        with pytest.raises(ValueError):
            P(bad)


def test_card_values():
    assert [ref.card_value(c) for c in P("AS 2H 9D TC JS QH KD")] == [1, 2, 9, 10, 10, 10, 10]
    # per suit: 1+2+...+10 = 55, plus J Q K = 30 -> 85; four suits -> 340
    assert sum(ref.card_value(c) for c in range(52)) == 340


# --- section 2: melds -----------------------------------------------------------------


def test_all_melds_counts():
    melds = ref.ALL_MELDS
    assert len(melds) == 329
    assert len(set(melds)) == 329
    sets = [m for m in melds if len({c % 13 for c in m}) == 1]
    runs = [m for m in melds if len({c // 13 for c in m}) == 1]
    # 13 ranks x (C(4,3)=4 three-card sets + 1 four-card set) = 65
    assert len(sets) == 65
    assert sum(len(m) == 4 for m in sets) == 13
    # per suit, runs of length L: 14 - L starts, L = 3..13 -> 11+10+...+1 = 66; x4 = 264
    assert len(runs) == 264
    assert all(ref.is_meld(m) for m in melds)


def test_is_meld_examples():
    assert ref.is_meld(P("AS 2S 3S"))  # ace low
    assert not ref.is_meld(P("QS KS AS"))  # no wrap
    assert not ref.is_meld(P("KS AS 2S"))
    assert ref.is_meld(P("7S 7H 7D 7C"))
    assert not ref.is_meld(P("7S 7H"))
    assert not ref.is_meld(P("7S 8S 9H"))
    assert not ref.is_meld(P("7S 8S TS"))


def test_melds_within():
    # 7S 7H 7D 7C 8C 9C: sets {777 x4 three-card, 1 four-card} + run 7C8C9C = 6 melds
    assert len(ref.melds_within(P("7S 7H 7D 7C 8C 9C"))) == 6


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("", 0),
        # a single run A..10 of spades
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0),
        # JS QS KS run, KH KD KC set, QH QD QC set -> only JH (10) left.
        # (KKKK + QQQQ would leave JS JH = 20.)
        ("KS KH KD KC QS QH QD QC JS JH", 10),
        # no wrap-around: 10 + 10 + 1
        ("QS KS AS", 21),
        # set 3S 3H 3D leaves AS 2S = 3; run AS 2S 3S would leave 3H 3D = 6
        ("AS 2S 3S 3H 3D", 3),
        # set 7S 7H 7D + run 7C 8C 9C (the 4-card set would leave 8C 9C = 17)
        ("7S 7H 7D 7C 8C 9C", 0),
        # run 4S5S6S + set 7S7H7D; the long run 4S-7S would leave 7H 7D = 14
        ("4S 5S 6S 7S 7H 7D", 0),
        # two runs of five
        ("AS 2S 3S 4S 5S 9H TH JH QH KH", 0),
        # no melds at all: 1+2+...+10 = 55
        ("AS 2H 3D 4C 5S 6H 7D 8C 9S TH", 55),
        # run 4H-7H leaves 6S 6D = 12; set 6S6D6H leaves 4H 5H 7H = 16
        ("4H 5H 6H 6S 6D 7H", 12),
        # run 5H-9H leaves 7S 7D = 14; set 777 leaves 5+6+8+9 = 28
        ("5H 6H 7H 7S 7D 8H 9H", 14),
    ],
)
def test_min_deadwood_examples(hand, expected):
    assert ref.ref_min_deadwood(P(hand)) == expected


def test_arrangements_examples():
    # A-6 of spades: one run A-6, or A23 + 456 -> two optimal arrangements
    arrs = ref.ref_min_deadwood_arrangements(P("AS 2S 3S 4S 5S 6S"))
    as_sets = sorted(sorted(sorted(m) for m in a) for a in arrs)
    assert as_sets == sorted(
        [[sorted(P("AS 2S 3S 4S 5S 6S"))], [sorted(P("AS 2S 3S")), sorted(P("4S 5S 6S"))]]
    )
    assert ref.ref_min_deadwood_arrangements(P("AS 2H")) == [[]]
    # the KQJ hand: JS QS KS + KH KD KC + QH QD QC leaves JH = 10, and symmetrically
    # JH QH KH + KS KD KC + QS QD QC leaves JS = 10 -> exactly two arrangements
    arrs = ref.ref_min_deadwood_arrangements(P("KS KH KD KC QS QH QD QC JS JH"))
    assert len(arrs) == 2


# --- best discard ---------------------------------------------------------------------


def test_best_discard_equal_value_tie():
    # melds AS2S3S, 4H5H6H, 7D8D9D; loose KC and QD: discarding either leaves 10.
    # Equal value -> higher index: KC = 51 > QD = 37.
    hand = P("AS 2S 3S 4H 5H 6H 7D 8D 9D KC QD")
    assert ref.ref_best_discard(hand) == (P("KC")[0], 10)
    assert ref.ref_best_discard(hand, forbidden=P("KC")[0]) == (P("QD")[0], 10)


def test_best_discard_value_tie():
    # 4S5S6S7S, 8H8D8C, 2D3D4D + KC: discarding KC, 4S or 7S all leave 0.
    hand = P("4S 5S 6S 7S 8H 8D 8C 2D 3D 4D KC")
    assert ref.ref_best_discard(hand) == (P("KC")[0], 0)  # highest value 10
    # KC forbidden (it stays, 10): discarding 4S (value 4) or 7S (value 7) leaves 10;
    # any other discard breaks a meld and leaves more -> higher value 7S
    assert ref.ref_best_discard(hand, forbidden=P("KC")[0]) == (P("7S")[0], 10)


# --- section 5.2: layoffs -------------------------------------------------------------

WORKED_KNOCKER = [P("7S 7H 7D"), P("4C 5C 6C"), P("JH QH KH")]


def test_worked_layoff_example():
    # knocker deadwood 3D = 3; defender 999 + 2H3H4H; 7C and 3C lay off, QS + 5D = 15
    defender = P("9S 9H 9D 2H 3H 4H 7C 3C QS 5D")
    assert ref.ref_min_deadwood(P("7S 7H 7D 4C 5C 6C JH QH KH 3D")) == 3
    assert ref.ref_min_deadwood(defender) == 7 + 3 + 10 + 5
    D = ref.ref_layoff_deadwood(WORKED_KNOCKER, defender)
    assert D == 15
    assert ref.ref_score(3, D, gin=False) == (12, 0)


def test_layoff_chain():
    # 7C then 8C onto 4C 5C 6C; the rest 9H 9D 5H 2D JS QD 4D 3H = 9+9+5+2+10+10+4+3 = 52
    knocker = [P("4C 5C 6C"), P("AS 2S 3S"), P("KH KD KC")]
    assert ref.ref_layoff_deadwood(knocker, P("7C 8C 9H 9D 5H 2D JS QD 4D 3H")) == 52
    # without 7C, 8C cannot go: 8+9+9+5+2+10+10+4+3+10 = 70
    assert ref.ref_layoff_deadwood(knocker, P("8C 9H 9D 5H 2D JS QD 4D 3H TS")) == 70


def test_layoff_chain_both_ends():
    # 4D then 3D below 5D6D7D, 8D then 9D above: left KS QH JC 2C AS 6S = 10+10+10+2+1+6
    knocker = [P("5D 6D 7D")]
    assert ref.ref_layoff_deadwood(knocker, P("3D 4D 8D 9D KS QH JC 2C AS 6S")) == 39


def test_layoff_choice_of_target_matters():
    # 7C fits the set 7S7H7D and the run 4C5C6C; only on the run can 8C follow.
    # left: 2S 2H 9D TD 5S AH 3D 6H = 2+2+9+10+5+1+3+6 = 38
    defender = P("7C 8C 2S 2H 9D TD 5S AH 3D 6H")
    assert ref.ref_layoff_deadwood(WORKED_KNOCKER, defender) == 38


def test_break_own_meld_to_lay_off():
    # Alone the 4-card set 5555 is best (deadwood 6H = 6). Against 2H3H4H the defender
    # keeps 5S5D5C and lays off 5H then 6H: deadwood 0.
    assert ref.ref_min_deadwood(P("5S 5H 5D 5C 6H")) == 6
    assert ref.ref_layoff_deadwood([P("2H 3H 4H")], P("5S 5H 5D 5C 6H")) == 0
    # same with a 10-card hand: 8C 8D 9C 9D KC stay = 8+8+9+9+10 = 44 (alone: 44 + 6 = 50)
    defender = P("5S 5H 5D 5C 6H 8C 8D 9C 9D KC")
    assert ref.ref_min_deadwood(defender) == 50
    assert ref.ref_layoff_deadwood([P("2H 3H 4H"), P("9S TS JS")], defender) == 44


def test_no_layoff_around_the_corner():
    # KS does not extend AS2S3S and AH does not extend JH QH KH: 10 + 1
    knocker = [P("AS 2S 3S"), P("JH QH KH")]
    assert ref.ref_layoff_deadwood(knocker, P("KS AH")) == 11
    assert ref.ref_layoff_deadwood(knocker, P("4S TH")) == 0


def test_no_layoff_onto_four_card_set():
    # the knocker's set already holds all four 7s; 8S does not fit it -> 8S stays (8)
    assert ref.ref_layoff_deadwood([P("7S 7H 7D 7C")], P("8S")) == 8


# --- section 6: scoring ---------------------------------------------------------------


def test_score_worked_examples():
    assert ref.ref_score(0, 45, gin=True) == (70, 0)  # 25 + 45
    assert ref.ref_score(0, 45, gin=True, gin_bonus=20) == (65, 0)  # classic 20 + 45
    assert ref.ref_score(10, 2, gin=False) == (0, 33)  # (10-2) + 25
    assert ref.ref_score(10, 10, gin=False) == (0, 25)  # tie is an undercut: 0 + 25
    assert ref.ref_score(9, 32, gin=False) == (23, 0)
    assert ref.ref_score(3, 16, gin=False) == (13, 0)
    assert ref.ref_score(9, 2, gin=False) == (0, 32)  # 7 + 25
    assert ref.ref_score(9, 2, gin=False, undercut_bonus=10) == (0, 17)  # classic 10
    assert ref.ref_score(0, 0, gin=True) == (25, 0)  # gin is never undercut
    assert ref.ref_score(5, 5, gin=False, undercut_on_tie=False) == (0, 0)


# --- consistency properties (independent brute force, small and fast) -----------------


def _min_deadwood_by_combinations(hand):
    """Independent check for <= 11 cards: at most 3 disjoint melds fit, try them all."""
    hand = frozenset(hand)
    melds = ref.melds_within(hand)
    best = ref.hand_value(hand)
    for k in (1, 2, 3):
        for combo in itertools.combinations(melds, k):
            covered = frozenset().union(*combo)
            if sum(len(m) for m in combo) == len(covered):
                best = min(best, ref.hand_value(hand - covered))
    return best


@settings(max_examples=60, deadline=None)
@given(ref.meld_dense_hands(10))
def test_min_deadwood_matches_combinations(hand):
    assert len(set(hand)) == 10
    best = ref.ref_min_deadwood(hand)
    assert best == _min_deadwood_by_combinations(hand)
    arrs = ref.ref_min_deadwood_arrangements(hand)
    assert arrs
    for arr in arrs:
        covered = frozenset().union(*arr)
        assert sum(len(m) for m in arr) == len(covered)
        assert all(ref.is_meld(m) and m <= set(hand) for m in arr)
        assert ref.hand_value(set(hand) - covered) == best


@settings(max_examples=25, deadline=None)
@given(ref.meld_dense_hands(20))
def test_layoff_bounds(cards):
    knocker_cards, defender = cards[:10], cards[10:]
    arr = ref.ref_min_deadwood_arrangements(knocker_cards)[0]
    knocker = [sorted(m) for m in arr]
    D = ref.ref_layoff_deadwood(knocker, defender)
    assert 0 <= D <= ref.ref_min_deadwood(defender)
    assert ref.ref_layoff_deadwood([], defender) == ref.ref_min_deadwood(defender)


@settings(max_examples=20, deadline=None)
@given(ref.random_hands(11))
def test_best_discard_is_minimal(hand):
    card, dw = ref.ref_best_discard(hand)
    assert card in hand
    assert dw == ref.ref_min_deadwood(set(hand) - {card})
    assert all(ref.ref_min_deadwood(set(hand) - {c}) >= dw for c in hand)
