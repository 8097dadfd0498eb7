"""Greek Rami meld planning: the exact search against a brute force that tries every
assignment of every card, worked lay-downs, and the legality of what it lays."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginsim.rami.game.candidates_nb import candidate_moves_nb
from ginsim.rami.game.cards import JOKER, hand_counts, kind_text, parse_hand
from ginsim.rami.game.melds import best_lay_down, plan_arrays, row_kinds, table_row
from ginsim.rami.game.melds_nb import LAID_SHIFT, LEFT_LIMIT, OUT_BIT
from ginsim.rami.game.moves_nb import MAX_TABLE, T_WIDTH
from ginsim.rami.game.rules import RamiRules

try:
    from tests.rami_reference import brute_best, extend_value, new_meld_value
except ImportError:  # tests/ itself on sys.path
    from rami_reference import brute_best, extend_value, new_meld_value

SMALL = RamiRules(open_min=15)
SMALL_TWO = RamiRules(open_min=15, jokers_per_meld=2)


def _text(kinds: list[int]) -> str:
    return " ".join(kind_text(k) for k in kinds)


def _random_meld(rng: random.Random, suits: list[int], ranks: list[int], jpm: int = 1
                 ) -> tuple[list, dict]:
    """A random table meld as (cards low to high, reference dict)."""
    if rng.random() < 0.5:
        suit = rng.choice(suits)
        lo = rng.randint(1, 11)
        hi = lo + 2 + rng.randint(0, 1)
        hi = min(hi, 14 if lo > 1 else 13)
        jp = rng.choice([0, 0, rng.randint(lo, hi)])
        jp2 = 0
        if jpm == 2 and hi - lo == 3 and rng.random() < 0.5:
            jp, jp2 = rng.choice([(lo, lo + 2), (lo + 1, lo + 3), (lo, lo + 3)])
        cards = [JOKER if p in (jp, jp2) else suit * 13 + (0 if p == 14 else p - 1)
                 for p in range(lo, hi + 1)]
        return cards, {"kind": "run", "suit": suit, "lo": lo, "hi": hi, "joker": jp,
                       "joker2": jp2}
    rank = rng.choice(ranks)
    chosen = rng.sample(range(4), rng.randint(2, 3))
    joker = 1 if len(chosen) == 2 or rng.random() < 0.3 else 0
    cards = [s * 13 + rank for s in chosen] + [JOKER] * joker
    return cards, {"kind": "set", "rank": rank, "suits": tuple(chosen), "joker": joker}


def _case(rng: random.Random, jpm: int = 1) -> tuple[list[int], list[tuple[list, dict]]]:
    suits = rng.sample(range(4), 2)
    base = rng.randint(0, 8)
    ranks = [0] + list(range(base, base + 5))
    table = [_random_meld(rng, suits, ranks, jpm) for _ in range(rng.randint(0, 2))]
    used = [k for cards, _ in table for k in cards]
    hand: list[int] = []
    pool = [s * 13 + r for s in suits for r in ranks] + [JOKER] * jpm
    while len(hand) < rng.randint(5, 6):
        k = rng.choice(pool)
        if (used + hand).count(k) < (4 if k == JOKER else 2):
            hand.append(k)
    return hand, table


def _planner_score(hand: list[int], table: list, opened: bool, dry_ok: bool,
                   rules: RamiRules = SMALL) -> int:
    rows = np.zeros((MAX_TABLE, T_WIDTH), dtype=np.int64)
    for i, (cards, _) in enumerate(table):
        rows[i] = table_row(_text(cards), rules)
    score, _, _ = plan_arrays(hand_counts(hand), rows, len(table), opened=opened,
                              others_opened=not dry_ok, rules=rules)
    return score


def _pack(best: tuple[int, int, int]) -> int:
    out, laid, neg_left = best
    return out * OUT_BIT + (laid << LAID_SHIFT) + LEFT_LIMIT + neg_left


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rules", [SMALL, SMALL_TWO], ids=["one_joker", "two_jokers"])
def test_planner_matches_brute_force(seed: int, rules: RamiRules) -> None:
    rng = random.Random(1000 + seed)
    jpm = rules.jokers_per_meld
    for _ in range(6):
        hand, table = _case(rng, jpm)
        for opened in (True, False):
            dry_ok = not table and rng.random() < 0.5
            want = brute_best(hand, [m for _, m in table], opened, dry_ok, rules.open_min,
                              jpm=jpm)
            got = _planner_score(hand, table, opened, dry_ok, rules)
            assert got == _pack(want), (_text(hand), [_text(c) for c, _ in table], opened)


def test_reference_meld_values() -> None:
    """The reference itself on hand-checked melds: laid values, ace low 1, high 11."""
    k = parse_hand
    assert new_meld_value(k("AS 2S 3S")) == 6
    assert new_meld_value(k("QS KS AS")) == 31
    assert new_meld_value(k("KS AS 2S")) is None
    assert new_meld_value(k("5S JK 7S")) == 18
    assert new_meld_value(k("7S 7H JK")) == 21
    assert new_meld_value(k("7S 7S 7H")) is None
    assert new_meld_value(k("5S JK JK")) is None
    assert extend_value({"kind": "run", "suit": 0, "lo": 5, "hi": 7, "joker": 0},
                        k("4S 8S JK")) == 4 + 8 + 9


def test_worked_lay_downs() -> None:
    """Hand-checked cases: opening at 51, dry rami, a lay-off, two kinds of exchange."""
    plan = best_lay_down("KS QS JS 10H 10D 10C 9C 9D 9H 4C 4H", opened=False,
                         others_opened=True)
    assert plan.laid_value == 87 and not plan.goes_out and plan.left_text == "4H 4C"
    short = best_lay_down("2S 3S 4S 5H 5D 5C 9D KH", opened=False, others_opened=True)
    assert short.moves == [] and short.laid_value == 0  # 24 < 51: no opening
    dry = best_lay_down("2S 3S 4S 5H 5D 5C KH", opened=False, others_opened=False)
    assert dry.goes_out and dry.laid_value == 24 and dry.left_text == "KH"
    off = best_lay_down("8H 4S JK", table=["5H 6H 7H"])
    assert off.goes_out and off.left_text == "4S" and off.table == ["5H 6H 7H 8H JK"]
    run_swap = best_lay_down("6H 4S 3S 2S", table=["5H JK 7H"])
    assert ("exchange", "6H") in run_swap.moves and run_swap.goes_out
    assert run_swap.table[0] == "5H 6H 7H"
    set_swap = best_lay_down("7C 4S 3S 2S", table=["7S 7H JK"])
    assert set_swap.goes_out and set_swap.table[0] == "7S 7H 7C"
    assert not best_lay_down("6H 4S 3S 2S", table=["5H JK 7H"], opened=False,
                             others_opened=True).moves  # exchanges need an opened player


def test_laid_melds_are_legal() -> None:
    """Every meld on the table after a random lay-down is a meld of the reference."""
    rng = random.Random(7)
    for _ in range(40):
        hand, table = _case(rng)
        plan = best_lay_down(_text(hand), [_text(c) for c, _ in table], rules=SMALL)
        for text in plan.table:
            kinds = parse_hand(text)
            assert new_meld_value(kinds) is not None, text
        before = sorted(hand + [k for c, _ in table for k in c])
        after = sorted(plan.left + [k for t in plan.table for k in parse_hand(t)])
        assert before == after  # cards are moved, never made or lost


def test_table_row_round_trip_and_errors() -> None:
    for text in ("5H JK 7H", "AS 2S 3S", "QD KD AD", "7S 7H JK", "JK 2C 3C"):
        assert " ".join(kind_text(k) for k in row_kinds(table_row(text))) == _text(
            parse_hand(text))
    for bad in ("5H 7H 9H", "KS AS 2S", "5H JK JK 8H", "5H 5H 5D"):
        with pytest.raises(ValueError, match="no meld"):
            table_row(bad)


def test_quick_use_test_never_misses_a_move() -> None:
    """``could_use_nb`` (the deal loop's test before searching with a taken discard) is
    True for every card some candidate move uses."""
    from ginsim.rami.game.moves_nb import C_CARDS, C_JOKERS, C_NC, C_WIDTH, MAX_CANDIDATES
    from ginsim.rami.game.tables import rami_tables
    from ginsim.rami.play.policy_nb import could_use_nb

    tabs = rami_tables(SMALL)
    cand = np.zeros((MAX_CANDIDATES, C_WIDTH), dtype=np.int64)
    rng = random.Random(3)
    checked = 0
    for _ in range(150):
        hand, table = _case(rng)
        rows = np.zeros((MAX_TABLE, T_WIDTH), dtype=np.int64)
        for i, (cards, _) in enumerate(table):
            rows[i] = table_row(_text(cards))
        counts = hand_counts(hand)
        n = candidate_moves_nb(counts, rows, len(table), True, tabs, cand)
        used = {int(k) for c in range(n) for k in cand[c, C_CARDS:C_CARDS + cand[c, C_NC]]}
        used |= {JOKER} if (cand[:n, C_JOKERS] > 0).any() else set()
        for kind in used:
            others = counts.copy()
            others[kind] -= 1  # the card came from the discard pile
            assert could_use_nb(others, kind, rows, len(table)), (_text(hand), kind)
            checked += 1
    assert checked > 300
