"""Mahjong gin (docs/rules.md §8.8): hand-made positions for each move the engine allows
or refuses, hands stepped one action at a time through the machine's step and policy
(the 52 cards conserved after every step, illegal actions refused, the hand loop's
records and trace reproduced), exact lay plans against a brute force, and scores
against a plain-Python reference."""

import random
from functools import cache

import numpy as np
import pytest
from reference import card_value, is_meld, parse, ref_min_deadwood

from ginsim.game.card_tables import card_tables
from ginsim.game.rules import Rules
from ginsim.game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_EXTEND,
    A_KNOCK,
    A_MELD,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    ENDING_KNOCK,
    HS_SIZE,
    PH_DISCARD,
    PH_DRAW,
    PH_OVER,
    POSITION_END,
    POSITION_START,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_POINTS,
    ST_DECK,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCKER,
    ST_MAX_PILE_TAKE,
    ST_MULTIPLIER,
    ST_MUST_LAY,
    ST_PHASE,
    ST_PILE,
    ST_PILE_CARDS,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_TABLE,
    ST_TABLE_N,
    ST_TO_MOVE,
    ST_TRACE_ROW,
    ST_TURNS,
    ST_UPCARD,
)
from ginsim.simulator.machine.board_nb import trace_turn_nb
from ginsim.simulator.machine.buffers import new_board
from ginsim.simulator.machine.deal_nb import seat_streams_nb, shuffle_deck_nb
from ginsim.simulator.machine.errors import (
    ERR_DEPTH,
    ERR_FORBIDDEN,
    ERR_LOWEST,
    ERR_MUST_LAY,
    ERR_NOT_HELD,
    ERR_NOT_MELD,
    ERR_NOT_OUT,
    ERR_PHASE,
    ERR_SLOT,
    ERR_STUCK,
    ERR_TURN,
    OK,
)
from ginsim.simulator.machine.mahjong_nb import (
    deal_mahjong_nb,
    extend_meld_nb,
    go_out_nb,
    lay_meld_nb,
    mahjong_decide_nb,
    mahjong_discard_nb,
    mahjong_showdown_nb,
    mahjong_step_nb,
    take_pile_nb,
    trace_mahjong_nb,
)
from ginsim.simulator.machine.records import (
    ACTION_BIG_GIN,
    ACTION_DISCARD,
    ACTION_KNOCK,
    RECORD_DTYPE,
    TRACE_WIDTH,
)
from ginsim.simulator.play.engine import play_records, seat_params
from ginsim.simulator.play.hand_nb import record_hand_nb
from ginsim.strategies.mahjong_plan_nb import NO_LIMIT, best_plan_nb

SCRATCH = new_board()


def on(hs):
    """``hs`` with the meld and plan scratch of :data:`SCRATCH` (a board)."""
    return SCRATCH._replace(hs=hs)

RULES = Rules.preset("mahjong")
TAB = card_tables(RULES)


def mask(text: str) -> int:
    return sum(1 << c for c in parse(text))


def cards_of(m: int) -> list[int]:
    return [c for c in range(52) if (m >> c) & 1]


def position(hand_a: str, hand_b: str, pile: str, table: tuple[str, ...] = ()) -> np.ndarray:
    """A hand state: the hands, the pile (bottom first), table melds; every other card
    is in the stock."""
    hs = np.zeros(HS_SIZE, dtype=np.int64)
    placed = parse(hand_a) + parse(hand_b) + parse(pile) + [c for t in table for c in parse(t)]
    assert len(set(placed)) == len(placed)
    rest = [c for c in range(52) if c not in placed]
    hs[ST_DECK:ST_DECK + 52] = placed + rest
    hs[ST_POS] = len(placed)
    hs[ST_HAND] = mask(hand_a)
    hs[ST_HAND + 1] = mask(hand_b)
    for i, c in enumerate(parse(pile)):
        hs[ST_PILE + i] = c
    hs[ST_PILE_LEN] = len(parse(pile))
    hs[ST_PILE_MASK] = mask(pile)
    for i, t in enumerate(table):
        hs[ST_TABLE + i] = mask(t)
    hs[ST_TABLE_N] = len(table)
    hs[ST_ENDING] = -1
    hs[ST_KNOCKER] = -1
    hs[ST_UPCARD] = -1
    hs[ST_DRAWN] = -1
    hs[ST_MULTIPLIER] = 1
    hs[ST_PHASE] = PH_DRAW
    hs[ST_TO_MOVE] = 0
    return hs


def packed(rules: Rules = RULES) -> np.ndarray:
    return rules.packed()


def table_cards(hs) -> int:
    out = 0
    for slot in range(hs[ST_TABLE_N]):
        assert out & int(hs[ST_TABLE + slot]) == 0
        out |= int(hs[ST_TABLE + slot])
    return out


def assert_conserved(hs):
    """Hands, table, pile and stock hold each of the 52 cards exactly once; every
    table meld is a meld."""
    pile = [int(c) for c in hs[ST_PILE:ST_PILE + hs[ST_PILE_LEN]]]
    stock = [int(c) for c in hs[ST_DECK + hs[ST_POS]:ST_DECK + 52]]
    parts = (cards_of(int(hs[ST_HAND])) + cards_of(int(hs[ST_HAND + 1]))
             + cards_of(table_cards(hs)) + pile + stock)
    assert sorted(parts) == list(range(52))
    assert int(hs[ST_PILE_MASK]) == sum(1 << c for c in pile)
    for slot in range(hs[ST_TABLE_N]):
        assert is_meld(cards_of(int(hs[ST_TABLE + slot])))


def test_a_multi_card_take_lays_its_lowest_card():
    # The pile, top first: 8S 3H 5H (the source's example); 5H is the lowest card taken.
    hs = position("4H 6H KC QD 9S 2C 2D 7C JD TS", "AS AD AC 3S 4S 5C 6C 9D 9C KD",
                  "5H 3H 8S")
    assert take_pile_nb(on(hs), 0, 3, packed(), TAB) == OK
    assert int(hs[ST_HAND]) == mask("4H 6H KC QD 9S 2C 2D 7C JD TS 5H 3H 8S")
    assert hs[ST_PILE_LEN] == 0 and hs[ST_PILE_MASK] == 0
    assert hs[ST_MUST_LAY] == mask("5H") and hs[ST_FORBIDDEN] == mask("5H 3H 8S")
    assert hs[ST_PILE_CARDS] == 3 and hs[ST_MAX_PILE_TAKE] == 3 and hs[ST_TURNS] == 1
    assert mahjong_discard_nb(hs, 0, parse("KC")[0], packed()) == -ERR_MUST_LAY
    assert lay_meld_nb(hs, 0, mask("3H 4H 5H 6H"), TAB) == OK
    assert mahjong_discard_nb(hs, 0, parse("8S")[0], packed()) == -ERR_FORBIDDEN
    assert mahjong_discard_nb(hs, 0, parse("KC")[0], packed()) >= 0
    assert int(hs[ST_TABLE]) == mask("3H 4H 5H 6H") and hs[ST_TABLE_N] == 1
    assert_conserved(hs)


def test_a_take_whose_lowest_card_cannot_be_laid_is_refused():
    hs = position("KC QD 9S 2C 2D 7C JD TS 4D 8D", "AS AD AC 3S 4S 5C 6C 9D 9C KD",
                  "5H 3H 8S")
    before = hs[POSITION_START:POSITION_END].copy()
    assert take_pile_nb(on(hs), 0, 3, packed(), TAB) == ERR_LOWEST
    assert take_pile_nb(on(hs), 0, 2, packed(), TAB) == ERR_LOWEST  # 3H is no better
    assert np.array_equal(hs[POSITION_START:POSITION_END], before)
    # The top card alone carries no obligation; a table meld can take the lowest card.
    assert take_pile_nb(on(hs), 0, 1, packed(), TAB) == OK and hs[ST_MUST_LAY] == 0
    hs = position("KC QD 9S 2C 2D 7C JD TS 4D 8D", "AS AD AC 3S 4S 5C 6C 9D",
                  "5H 3H 8S", table=("6H 7H 8H", "9C TC JC"))
    assert take_pile_nb(on(hs), 0, 3, packed(), TAB) == OK
    assert extend_meld_nb(hs, 0, 0, mask("5H"), TAB) == OK
    assert mahjong_discard_nb(hs, 0, parse("KC")[0], packed()) >= 0


def test_a_take_that_leaves_no_legal_discard_is_refused():
    # 4H 6H take 5H (the lowest) and KS: once 4H 5H 6H are down only KS, just taken, is
    # left, and it may not be discarded.
    hs = position("4H 6H", "AS AD AC 3S 4S 5C 6C 9D 9C KD", "5H KS")
    assert take_pile_nb(on(hs), 0, 2, packed(), TAB) == ERR_STUCK
    free = RULES.with_(mahjong_discard_to_go_out=False).packed()
    assert take_pile_nb(on(hs), 0, 2, free, TAB) == ERR_STUCK  # KS cannot be laid either
    hs = position("4H 6H 9C", "AS AD AC 3S 4S 5C 6C 9D KC KD", "5H KS")
    assert take_pile_nb(on(hs), 0, 2, packed(), TAB) == OK


def test_the_opponents_melds_are_extended():
    hs = position("JC QC 7C 5C 2D KS", "AS AD 3S", "4D", table=("8C 9C TC", "5S 5H 5D"))
    assert extend_meld_nb(hs, 0, 0, mask("QC"), TAB) == ERR_NOT_MELD  # JC is missing
    assert extend_meld_nb(hs, 0, 1, mask("2D"), TAB) == ERR_NOT_MELD
    assert extend_meld_nb(hs, 0, 0, mask("JC QC"), TAB) == OK
    assert extend_meld_nb(hs, 0, 0, mask("7C"), TAB) == OK
    assert extend_meld_nb(hs, 0, 1, mask("5C"), TAB) == OK
    assert hs[ST_TABLE] == mask("7C 8C 9C TC JC QC") and hs[ST_TABLE + 1] == mask("5S 5H 5D 5C")
    assert hs[ST_HAND] == mask("2D KS")
    assert_conserved(hs)


def test_going_out_scores_the_bonus_and_every_card_left_in_the_other_hand():
    hs = position("4H 5H 6H 9C", "KS KD 2C 3C 4C QH", "TS", table=("7S 8S 9S",))
    assert lay_meld_nb(hs, 0, mask("4H 5H 6H"), TAB) == OK
    assert mahjong_discard_nb(hs, 0, parse("9C")[0], packed()) == ACTION_KNOCK
    assert hs[ST_ENDING] == ENDING_KNOCK and hs[ST_KNOCKER] == 0
    mahjong_showdown_nb(on(hs), packed(), TAB)
    left = parse("KS KD 2C 3C 4C QH")
    assert hs[RES_KNOCKER] == 0
    assert hs[RES_POINTS] == 25 + sum(card_value(c) for c in left) and hs[RES_POINTS + 1] == 0
    assert hs[RES_DEFENDER_BEFORE] == ref_min_deadwood(left)
    melds_count = RULES.with_(mahjong_final_meld=True)
    mahjong_showdown_nb(on(hs), melds_count.packed(), TAB)
    assert hs[RES_POINTS] == 25 + ref_min_deadwood(left) == hs[RES_DEFENDER_DEADWOOD] + 25


def test_going_out_without_a_discard_only_when_the_rules_allow_it():
    free = RULES.with_(mahjong_discard_to_go_out=False).packed()
    hs = position("4H 5H 6H", "KS KD 2C", "TS")
    assert lay_meld_nb(hs, 0, mask("4H 5H 6H"), TAB) == OK
    assert go_out_nb(hs, 0, packed()) == -ERR_NOT_OUT
    assert go_out_nb(hs, 0, free) == ACTION_BIG_GIN and hs[ST_KNOCKER] == 0


@cache
def ref_left(cards: frozenset, table: frozenset) -> int:
    """Least value left in hand after laying melds from ``cards`` and extending the
    table melds ``table`` (a frozenset of frozensets), by brute force on the lowest card:
    it stays in hand, or goes down in a new meld, or onto a (possibly grown) table meld."""
    if not cards:
        return 0
    low = min(cards)
    rest = sorted(cards - {low})
    best = card_value(low) + ref_left(cards - {low}, table)
    for k in range(len(rest) + 1):
        for extra in _subsets(tuple(rest), k):
            group = frozenset((low, *extra))
            if len(group) >= 3 and is_meld(group):
                best = min(best, ref_left(cards - group, table))
            for meld in table:
                if is_meld(meld | group):
                    best = min(best, ref_left(cards - group, table - {meld} | {meld | group}))
    return best


def _subsets(items: tuple, k: int):
    from itertools import combinations
    return combinations(items, k)


def random_table_position(rnd: random.Random):
    """A random hand of 6-9 cards and up to three random table melds beside it."""
    deck = list(range(52))
    rnd.shuffle(deck)
    table = []
    used = set()
    for _ in range(rnd.randint(0, 3)):
        if rnd.random() < 0.5:
            rank = rnd.randrange(13)
            meld = {s * 13 + rank for s in rnd.sample(range(4), 3)}
        else:
            suit, start = rnd.randrange(4), rnd.randrange(11)
            meld = {suit * 13 + r for r in range(start, start + rnd.randint(3, min(5, 13 - start)))}
        if not meld & used:
            table.append(frozenset(meld))
            used |= meld
    # Hands near the table melds: half the cards from the same suits and ranks.
    near = [c for c in deck if c not in used and any(c // 13 == m // 13 or c % 13 == m % 13
                                                       for t in table for m in t)]
    pool = [c for c in deck if c not in used]
    hand = set(rnd.sample(near, min(len(near), rnd.randint(0, 5))))
    while len(hand) < rnd.randint(6, 9):
        hand.add(rnd.choice(pool))
    return frozenset(hand), table


def test_lay_plans_are_exact_against_brute_force():
    """best_plan_nb's deadwood (nothing discarded, and after the best discard) equals a
    brute force over every way to lay cards, table melds included."""
    rnd = random.Random(16)
    hs = np.zeros(HS_SIZE, dtype=np.int64)
    for _ in range(150):
        hand, table = random_table_position(rnd)
        for slot, meld in enumerate(table):
            hs[ST_TABLE + slot] = sum(1 << c for c in meld)
        hs[ST_TABLE_N] = len(table)
        tset = frozenset(table)
        m = sum(1 << c for c in hand)
        dw, _, used = best_plan_nb(m, 0, 0, False, True, on(hs), TAB, NO_LIMIT)
        assert dw == ref_left(hand, tset)
        dw, discard, used = best_plan_nb(m, m, 0, True, True, on(hs), TAB, NO_LIMIT)
        assert dw == min(ref_left(hand - {d}, tset) for d in hand)
        assert discard in hand and (used >> discard) & 1 == 0
        assert dw == sum(card_value(c) for c in hand if not (used >> c) & 1) - card_value(discard)


VARIANTS = (RULES, RULES.with_(deal="eleven"), RULES.with_(mahjong_discard_to_go_out=False),
            RULES.with_(deal="eleven", mahjong_final_meld=True))


def illegal_actions(hs, seat):
    """Actions the machine must refuse in the position ``hs`` (``seat`` to move), each
    with the error expected: other phases' kinds, the other seat, too deep a take, cards
    not held, a non-meld, no such slot, a discard while a take's lowest card is in hand
    or of a card just taken, going out with cards left."""
    out = [(1 - seat, A_STOCK, -1, 0, ERR_TURN), (1 - seat, A_DISCARD, -1, 0, ERR_TURN)]
    out += [(seat, kind, -1, 0, ERR_PHASE) for kind in (A_TAKE, A_PASS, A_KNOCK)]
    hand = int(hs[ST_HAND + seat])
    if hs[ST_PHASE] == PH_DRAW:
        n = int(hs[ST_PILE_LEN])
        out += [(seat, A_PILE, -1, 0, ERR_DEPTH), (seat, A_PILE, -1, n + 1, ERR_DEPTH)]
        out += [(seat, kind, c, hand, ERR_PHASE) for kind, c in
                ((A_MELD, -1), (A_EXTEND, 0), (A_DISCARD, cards_of(hand)[0]), (A_BIG_GIN, -1))]
        return out
    out += [(seat, A_STOCK, -1, 0, ERR_PHASE), (seat, A_PILE, -1, 1, ERR_PHASE)]
    absent = min(c for c in range(52) if not (hand >> c) & 1)
    out += [(seat, A_MELD, -1, 1 << absent, ERR_NOT_HELD),
            (seat, A_EXTEND, int(hs[ST_TABLE_N]), hand, ERR_SLOT)]
    held = cards_of(hand)
    if len(held) >= 2:
        out.append((seat, A_MELD, -1, (1 << held[0]) | (1 << held[-1]), ERR_NOT_MELD))
    must, forbidden = int(hs[ST_MUST_LAY]), int(hs[ST_FORBIDDEN])
    if must:  # the take's lowest card is laid before anything else may end the turn
        out += [(seat, A_DISCARD, held[0], 0, ERR_MUST_LAY), (seat, A_BIG_GIN, -1, 0,
                                                              ERR_MUST_LAY)]
    else:
        out.append((seat, A_DISCARD, absent, 0, ERR_NOT_HELD))
        if forbidden & hand:
            out.append((seat, A_DISCARD, cards_of(forbidden & hand)[0], 0, ERR_FORBIDDEN))
        if hand:
            out.append((seat, A_BIG_GIN, -1, 0, ERR_NOT_OUT))
    return out


def step_hand(board, trial, hand_id, seed, params, rules, trace):
    """Deal and play hand ``hand_id`` as the hand loop does, one action at a time from
    Python through :func:`mahjong_decide_nb` and :func:`mahjong_step_nb`, writing its
    trace; after every step the 52 cards are where they were put, and every illegal
    action tried on a copy of the position is refused without changing it. Returns
    the steps of each kind."""
    packed_rules, tab = rules.packed(), card_tables(rules)
    hs, rng, key = board.hs, np.zeros(3, dtype=np.uint64), np.uint64(seed)
    shuffle_deck_nb(hs, rng, key, hand_id)
    seat_streams_nb(rng, key, hand_id)
    deal_mahjong_nb(hs, hand_id % 2, packed_rules, hand_id)
    trace_turn_nb(trace, hs, -1, -1, -1, -1, ACTION_DISCARD)
    kinds = np.zeros(16, dtype=np.int64)
    while hs[ST_PHASE] < PH_OVER:
        seat = int(hs[ST_TO_MOVE])
        assert hs[ST_PHASE] in (PH_DRAW, PH_DISCARD)
        for who, kind, card, kept, err in illegal_actions(hs, seat):
            trial.hs[:] = hs
            assert mahjong_step_nb(trial, who, kind, card, kept, packed_rules, tab) == -err
            assert np.array_equal(trial.hs, hs), (kind, err)
        kind, card, kept = mahjong_decide_nb(params, seat, board, packed_rules, tab, rng)
        status = mahjong_step_nb(board, seat, kind, card, kept, packed_rules, tab)
        assert status >= 0, (kind, card, kept, status)
        trace_mahjong_nb(trace, hs, seat, kind, card, status)
        kinds[kind] += 1
        assert_conserved(hs)
        assert hs[ST_TO_MOVE] == (seat if hs[ST_PHASE] == PH_DISCARD else
                                  -1 if hs[ST_PHASE] >= PH_OVER else 1 - seat)
    assert hs[ST_MUST_LAY] == 0 and hs[ST_TO_MOVE] == -1
    assert hs[ST_ENDING] != ENDING_KNOCK or hs[ST_HAND + hs[ST_KNOCKER]] == 0
    for kind in (A_STOCK, A_DISCARD, A_BIG_GIN):
        trial.hs[:] = hs
        assert mahjong_step_nb(trial, 0, kind, -1, 0, packed_rules, tab) == -ERR_PHASE
    mahjong_showdown_nb(board, packed_rules, tab)
    return kinds


@pytest.mark.parametrize("a,b,rules", [("simple", "simple", VARIANTS[0]),
                                       ("memory2", "random", VARIANTS[1]),
                                       ("memory1", "simple:lay=3", VARIANTS[2]),
                                       ("random", "memory2", VARIANTS[3])])
def test_a_hand_stepped_from_python_is_the_hand_loops(a, b, rules):
    """Hands stepped one action at a time (:func:`step_hand`) give the records and the
    trace the hand loop (``play_records``) gives for the same seed."""
    n, seed = 10, 4
    params = seat_params(a, b, rules)
    rec, trace = play_records(a, b, stop=n, seed=seed, rules=rules, trace_rows=n * 200)
    board, trial = new_board(), new_board()
    mine = np.zeros((n * 200, TRACE_WIDTH), dtype=np.int64)
    board.hs[ST_TRACE_ROW] = 0
    mine_rec = np.zeros(n, dtype=RECORD_DTYPE)
    kinds = np.zeros(16, dtype=np.int64)
    for i in range(n):
        kinds += step_hand(board, trial, i, seed, params, rules, mine)
        record_hand_nb(mine_rec, i, i, i % 2, board.hs)
    assert mine_rec.tobytes() == rec.tobytes()
    assert np.array_equal(mine[:board.hs[ST_TRACE_ROW]], trace)
    assert kinds[A_MELD] + kinds[A_EXTEND] > 0 and kinds[A_DISCARD] > 0


def test_scores_and_pile_columns_against_a_reference():
    """Every hand's points from the final hands in the trace: the player who went out
    scores 25 plus the other hand's card values; a dead hand scores nothing."""
    n = 200
    for rules in (RULES, RULES.with_(mahjong_final_meld=True)):
        rec, trace = play_records("memory2", "simple", stop=n, seed=7, rules=rules,
                                  trace_rows=n * 200)
        last = {int(row[0]): row for row in trace}
        assert len(last) == n
        for r in rec:
            row = last[int(r["hand"])]
            if r["outcome"] == 4:
                assert r["points_a"] == r["points_b"] == 0
                continue
            assert r["outcome"] == 1
            winner = int(r["knocker"])
            left = cards_of(int(row[8 - winner]))  # hand_a is column 7, hand_b 8
            assert cards_of(int(row[7 + winner])) == []
            charged = (ref_min_deadwood(left) if rules.mahjong_final_meld
                       else sum(card_value(c) for c in left))
            pts = (r["points_a"], r["points_b"])
            assert pts[winner] == 25 + charged and pts[1 - winner] == 0
        pile_rows = trace[trace[:, 3] == 1]
        assert rec["pile_cards_taken"].sum() >= len(pile_rows)
        assert (rec["max_pile_take"] > 1).any()
        assert (rec["pile_cards_taken"] >= rec["max_pile_take"]).all()


def test_standard_play_counts_one_card_a_take():
    rec, trace = play_records("simple", "memory1", stop=300, seed=5, trace_rows=300 * 80)
    takes = np.bincount(trace[trace[:, 3] == 1][:, 0], minlength=300)
    assert np.array_equal(rec["pile_cards_taken"], takes)
    assert np.array_equal(rec["max_pile_take"], np.minimum(takes, 1))


@pytest.mark.parametrize("lay,laid", [(52, True), (3, False)])
def test_lay_holds_melds_until_the_opponent_is_down_to_that_many_cards(lay, laid):
    hs = position("4H 5H 6H KC QD 9S 2C 8D 7C JD", "AS AD AC 3S 4S 5C 6C 9D 9C KD", "TS")
    params = seat_params(f"simple:lay={lay}", "simple")
    rng = np.zeros(3, dtype=np.uint64)
    while hs[ST_TO_MOVE] == 0:  # seat a's turn: its draw, its lays, its discard
        kind, card, kept = mahjong_decide_nb(params, 0, on(hs), packed(), TAB, rng)
        assert mahjong_step_nb(on(hs), 0, kind, card, kept, packed(), TAB) >= 0
    assert hs[ST_PHASE] == PH_DRAW and hs[ST_TO_MOVE] == 1
    assert (hs[ST_TABLE_N] == 1 and hs[ST_TABLE] == mask("4H 5H 6H")) == laid
    assert (int(hs[ST_HAND]) & mask("4H 5H 6H") == 0) == laid
    assert_conserved(hs)


def test_pile_takes_are_worth_points():
    """A fixed-seed statistic: over duplicate deals, simple (which buys from the pile)
    beats the same player that never takes from the pile by several points a hand."""
    rec, _ = play_records("simple", "simple:draw=never", stop=2000, seed=11, rules=RULES,
                          duplicate=True)
    diff = (rec["points_a"].astype(float) - rec["points_b"])
    assert diff.mean() - 2 * diff.std() / np.sqrt(len(diff)) > 5
    assert (rec["max_pile_take"] > 1).mean() > 0.2


def test_held_melds_run_through_the_aggregates_and_knock_tools_refuse():
    """A held-melds loser can be charged far more than ten cards' worth: the streamed
    tables hold it; tools that need knocking or the standard turn refuse in one line."""
    import ginsim

    hands = ginsim.simulate("memory2", "memory2", 4_000, seed=3, rules="mahjong",
                            chunk_hands=1_000)
    assert hands["defender_deadwood"].max() > 100  # past the standard game's bins
    summary = ginsim.simulate("memory2", "memory2", 4_000, seed=3, rules="mahjong",
                              records="summary", chunk_hands=1_000)
    assert summary["hands"].sum() == 4_000
    for call, words in ((lambda: ginsim.simulate("mc", "simple", 10, rules="mahjong"),
                         "mc plays knocking-gin"),
                        (lambda: ginsim.knock_chart("simple", "simple", 10, rules="mahjong"),
                         "no knocking"),
                        (lambda: ginsim.positions("simple", "simple", 2, rules="mahjong"),
                         "Mahjong")):
        with pytest.raises(ValueError, match=words):
            call()
