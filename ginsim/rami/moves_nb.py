"""Rami moves: every candidate move of a hand against the table, as kernels.

A hand is int64[53] kind counts (:mod:`ginsim.rami.cards`). The table is an int64
array ``table[m, T_*]``: a set (rank, natural suits bit mask, joker flag) or a run
(suit, lowest and highest position, the joker's position; positions 1 = ace low ..
14 = ace high). ``tabs`` is :func:`ginsim.rami.tables.rami_tables`.

A *candidate* is one move of a turn, a row ``cand[i, C_*]``: a new set or run from the
hand (a joker in at most one slot), a block of cards laid off at one end of a table
run, cards (a joker too) added to a table set, or a tabled joker exchanged for the
natural card it stands for. Each consumes hand cards (each kind at most once) and uses
table *resources* (one end of a run, a set's free slots, a meld's joker slot), so two
moves that would touch the same end of a meld never combine. The search over them is
:mod:`ginsim.rami.melds_nb`. Kernels allocate nothing: the caller hands every array.
"""

import numpy as np

from ..game._jit import jit, jit_inline
from .tables import TB_JPM, TB_POS, TB_SET

JOKER = 52
# Table meld fields.
T_KIND = 0  # 0 empty, 1 set, 2 run
T_SUIT = 1
T_RANK = 2
T_LO = 3
T_HI = 4
T_SUITS = 5
T_JOKER = 6  # run: the (first) joker's position (0 none); set: 1 with a joker
T_OWNER = 7
T_SIZE = 8
T_JOKER2 = 9  # run: a second joker's position (0 none; jokers_per_meld=2)
T_WIDTH = 10
KIND_SET = 1
KIND_RUN = 2
MAX_TABLE = 64

# Candidate fields.
C_TYPE = 0
C_TARGET = 1
C_VALUE = 2
C_JOKERS = 3  # jokers taken from the hand (-1: an exchange gives one)
C_RES1 = 4
C_RES2 = 5
C_PURE = 6
C_NEWJ = 7  # jokers put into new melds
C_FREED = 8
C_SUIT = 9
C_RANK = 10
C_LO = 11
C_HI = 12
C_JPOS = 13
C_SUITS = 14
C_XSUIT = 15
C_NC = 16
C_MASK = 17  # bit mask of the natural kinds the move uses
C_JPOS2 = 18  # a second joker's position in a run or block (0 none)
C_CARDS = 19
MAX_MELD_CARDS = 14
C_WIDTH = C_CARDS + MAX_MELD_CARDS
MOVE_NEW_SET = 0
MOVE_NEW_RUN = 1
MOVE_RUN_BLOCK = 2
MOVE_SET_ADD = 3
MOVE_RUN_EXCHANGE = 4
MAX_CANDIDATES = 4096
RES_LOW = 0
RES_HIGH = 1
RES_JOKER = 2  # jokers a joker-free run takes this turn (a count, up to the rules' cap)
RES_SET = 3  # every move on a set
RES_X1 = 3  # exchanging a run's first joker
RES_X2 = 4  # exchanging a run's second joker
RES_SLOTS = 5

@jit_inline
def kind_at_nb(suit, pos):
    """The kind at run position ``pos`` (1..14) of ``suit``: 14 is the ace again."""
    return suit * 13 + (0 if pos == 14 else pos - 1)


@jit_inline
def _begin(cand, n, move, target, value):
    if n < MAX_CANDIDATES:
        row = cand[n]
        for f in range(C_CARDS):
            row[f] = 0
        row[C_TYPE] = move
        row[C_TARGET] = target
        row[C_VALUE] = value
        row[C_RES1] = -1
        row[C_RES2] = -1
        row[C_XSUIT] = -1


@jit_inline
def _add_card(cand, n, kind):
    if n < MAX_CANDIDATES:
        k = cand[n, C_NC]
        cand[n, C_CARDS + k] = kind
        cand[n, C_NC] = k + 1
        cand[n, C_MASK] |= np.int64(1) << kind


@jit
def _run_candidates_nb(counts, jokers, tabs, cand, n):
    """New runs: 3+ naturals in sequence, or 2+ naturals and a joker standing for any one
    position (a missing card or one held but wanted elsewhere); of the two ends a joker
    could extend, only the higher (worth at least as much) is listed. Under
    ``jokers_per_meld=2`` also runs of 4+ with two jokers in positions not side by side."""
    two = tabs[TB_JPM] >= 2 and jokers >= 2
    allowed = 2 if two else (1 if jokers > 0 else 0)
    for suit in range(4):
        held = 0
        for r in range(13):
            held += 1 if counts[suit * 13 + r] > 0 else 0
        if held < 2:
            continue  # a run needs two naturals of its suit
        for lo in range(1, 14):
            if counts[kind_at_nb(suit, lo)] == 0 and (
                    jokers == 0 or counts[kind_at_nb(suit, lo + 1)] == 0):
                continue  # a missing first card is only a joker's, before a held one
            gaps = 0
            gap = 0
            gap2 = 0
            value = 0
            for hi in range(lo, 15):
                if lo == 1 and hi == 14:
                    break
                value += tabs[TB_POS + hi]
                if counts[kind_at_nb(suit, hi)] == 0:
                    gaps += 1
                    if gaps == 1:
                        gap = hi
                    else:
                        gap2 = hi
                    if gaps > allowed or (gaps == 2 and gap2 == gap + 1):
                        break
                if hi - lo < 2:
                    continue
                if two and hi - lo >= 3:
                    n = _two_joker_runs_nb(cand, n, suit, lo, hi, gaps, gap, gap2, value)
                if gaps == 2:
                    continue
                if gaps == 1:
                    if gap != lo or hi == 14:
                        _begin(cand, n, MOVE_NEW_RUN, -1, value)
                        _fill_run(cand, n, suit, lo, hi, gap, 0)
                        n += 1
                    continue
                _begin(cand, n, MOVE_NEW_RUN, -1, value)
                if n < MAX_CANDIDATES:
                    cand[n, C_PURE] = 1
                _fill_run(cand, n, suit, lo, hi, 0, 0)
                n += 1
                if jokers > 0:
                    first = lo + 1 if hi < 14 else lo
                    for jpos in range(first, hi + 1):
                        _begin(cand, n, MOVE_NEW_RUN, -1, value)
                        _fill_run(cand, n, suit, lo, hi, jpos, 0)
                        n += 1
    return n


@jit_inline
def _two_joker_runs_nb(cand, n, suit, lo, hi, gaps, gap, gap2, value):
    """Run lo..hi with two jokers, not side by side, covering its ``gaps`` missing
    positions (``gap``, ``gap2``); the others stand for cards held."""
    for a in range(lo, hi + 1):
        for b in range(a + 2, hi + 1):
            if gaps >= 1 and a != gap and b != gap:
                continue
            if gaps == 2 and not (a == gap and b == gap2):
                continue
            _begin(cand, n, MOVE_NEW_RUN, -1, value)
            _fill_run(cand, n, suit, lo, hi, a, b)
            n += 1
    return n


@jit_inline
def _fill_run(cand, n, suit, lo, hi, jpos, jpos2):
    if n < MAX_CANDIDATES:
        cand[n, C_SUIT] = suit
        cand[n, C_LO] = lo
        cand[n, C_HI] = hi
        cand[n, C_JPOS] = jpos
        cand[n, C_JPOS2] = jpos2
        used = (1 if jpos > 0 else 0) + (1 if jpos2 > 0 else 0)
        cand[n, C_JOKERS] = used
        cand[n, C_NEWJ] = used
        for p in range(lo, hi + 1):
            if p != jpos and p != jpos2:
                _add_card(cand, n, kind_at_nb(suit, p))


@jit
def _set_candidates_nb(counts, jokers, tabs, cand, n):
    """New sets: 3-4 naturals of different suits, or 2-3 and a joker."""
    for rank in range(13):
        present = 0
        for suit in range(4):
            if counts[suit * 13 + rank] > 0:
                present |= 1 << suit
        held = (present & 1) + (present >> 1 & 1) + (present >> 2 & 1) + (present >> 3 & 1)
        if held < 2 or (held == 2 and jokers == 0):
            continue
        for sub in range(1, 16):
            if sub & present != sub:
                continue
            size = (sub & 1) + (sub >> 1 & 1) + (sub >> 2 & 1) + (sub >> 3 & 1)
            for joker in range(2):
                total = size + joker
                if total < 3 or total > 4 or size < 2 or (joker == 1 and jokers == 0):
                    continue
                _begin(cand, n, MOVE_NEW_SET, -1, total * tabs[TB_SET + rank])
                if n < MAX_CANDIDATES:
                    cand[n, C_RANK] = rank
                    cand[n, C_SUITS] = sub
                    cand[n, C_JOKERS] = joker
                    cand[n, C_NEWJ] = joker
                    cand[n, C_JPOS] = joker
                for suit in range(4):
                    if sub >> suit & 1:
                        _add_card(cand, n, suit * 13 + rank)
                n += 1
    return n


@jit
def _run_block_candidates_nb(counts, jokers, table, m, tabs, cand, n):
    """Blocks laid off at either end of table run ``m``; if the run holds no joker, a
    joker may stand for any one position of a block (two, not side by side, under
    ``jokers_per_meld=2``)."""
    suit = table[m, T_SUIT]
    lo = table[m, T_LO]
    hi = table[m, T_HI]
    cap = min(jokers, tabs[TB_JPM]) if table[m, T_JOKER] == 0 else 0
    for side in range(2):
        missing = 0
        gap = 0
        gap2 = 0
        value = 0
        for k in range(1, 14):
            p = lo - k if side == 0 else hi + k
            if p < 1 or p > 14 or (p == 1 and hi == 14) or (p == 14 and lo == 1):
                break
            value += tabs[TB_POS + p]
            if counts[kind_at_nb(suit, p)] == 0:
                missing += 1
                if missing == 1:
                    gap = p
                else:
                    gap2 = p
                if missing > cap or (missing == 2 and abs(gap2 - gap) == 1):
                    break
            b_lo = p if side == 0 else hi + 1
            b_hi = lo - 1 if side == 0 else p
            if missing == 0:
                n = _block_nb(cand, n, m, side, suit, b_lo, b_hi, 0, 0, value)
            if missing <= 1 and cap >= 1:
                for q in range(b_lo, b_hi + 1):
                    if missing == 0 or q == gap:
                        n = _block_nb(cand, n, m, side, suit, b_lo, b_hi, q, 0, value)
            if cap >= 2:
                for a in range(b_lo, b_hi + 1):
                    for b in range(a + 2, b_hi + 1):
                        if _covers_nb(missing, gap, gap2, a, b):
                            n = _block_nb(cand, n, m, side, suit, b_lo, b_hi, a, b, value)
    return n


@jit_inline
def _covers_nb(missing, gap, gap2, a, b):
    """Whether joker positions a < b fill every missing position (gap, gap2)."""
    if missing >= 1 and a != gap and b != gap:
        return False
    if missing == 2 and a != gap2 and b != gap2:
        return False
    return True


@jit_inline
def _block_nb(cand, n, m, side, suit, b_lo, b_hi, jpos, jpos2, value):
    _begin(cand, n, MOVE_RUN_BLOCK, m, value)
    if n < MAX_CANDIDATES:
        cand[n, C_RES1] = m * RES_SLOTS + (RES_LOW if side == 0 else RES_HIGH)
        cand[n, C_SUIT] = suit
        cand[n, C_LO] = b_lo
        cand[n, C_HI] = b_hi
        used = (1 if jpos > 0 else 0) + (1 if jpos2 > 0 else 0)
        if used > 0:
            cand[n, C_RES2] = m * RES_SLOTS + RES_JOKER
            cand[n, C_JOKERS] = used
            cand[n, C_JPOS] = jpos
            cand[n, C_JPOS2] = jpos2
        for q in range(b_lo, b_hi + 1):
            if q != jpos and q != jpos2:
                _add_card(cand, n, kind_at_nb(suit, q))
    return n + 1


@jit
def _set_add_candidates_nb(counts, jokers, table, m, exchanges, with_exchange, tabs, cand, n):
    """Cards added to table set ``m`` (missing suits, a joker if it holds none), with
    (``with_exchange``) or without the exchange of its joker for a natural of a missing
    suit: one move per combination, so no suit is used twice."""
    rank = table[m, T_RANK]
    suits = table[m, T_SUITS]
    has_joker = table[m, T_JOKER]
    size = table[m, T_SIZE]
    missing = 15 & ~suits
    held = 0
    for suit in range(4):
        if counts[suit * 13 + rank] > 0:
            held |= 1 << suit
    if missing & held == 0 and (jokers == 0 or has_joker != 0 or with_exchange):
        return n  # nothing of this rank in hand, and no joker to add
    for x in range(-1, 4):
        if (x >= 0) != with_exchange:
            continue
        if x >= 0 and (not exchanges or has_joker == 0 or not (missing & held) >> x & 1):
            continue
        free = missing & held & ~(1 << x if x >= 0 else 0)
        for sub in range(16):
            if sub & free != sub:
                continue
            count = (sub & 1) + (sub >> 1 & 1) + (sub >> 2 & 1) + (sub >> 3 & 1)
            for addj in range(2):
                if addj == 1 and (has_joker != 0 or jokers == 0):
                    continue
                if size + count + addj > 4 or (x < 0 and count + addj == 0):
                    continue
                ex = 1 if x >= 0 else 0
                _begin(cand, n, MOVE_SET_ADD, m, (count + addj + ex) * tabs[TB_SET + rank])
                if n < MAX_CANDIDATES:
                    cand[n, C_RES1] = m * RES_SLOTS + RES_SET
                    cand[n, C_RANK] = rank
                    cand[n, C_SUITS] = sub
                    cand[n, C_XSUIT] = x
                    cand[n, C_JOKERS] = addj - ex
                    cand[n, C_FREED] = ex
                    cand[n, C_JPOS] = addj
                for suit in range(4):
                    if sub >> suit & 1 or suit == x:
                        _add_card(cand, n, suit * 13 + rank)
                n += 1
    return n


@jit
def candidates_nb(counts, table, n_table, exchanges, tabs, cand):
    """Every move of the hand ``counts`` against ``table[:n_table]``; returns how many
    (moves past ``MAX_CANDIDATES`` are counted, not written). Exchanges come first, so a
    freed joker is in hand when the search reaches the new melds."""
    n = 0
    jokers = counts[JOKER]
    freed = 0
    for m in range(n_table):
        if table[m, T_KIND] == KIND_RUN and exchanges:
            for slot in range(2):
                jpos = table[m, T_JOKER if slot == 0 else T_JOKER2]
                if jpos == 0:
                    continue
                kind = kind_at_nb(table[m, T_SUIT], jpos)
                if counts[kind] > 0:
                    _begin(cand, n, MOVE_RUN_EXCHANGE, m, tabs[TB_POS + jpos])
                    if n < MAX_CANDIDATES:
                        cand[n, C_RES1] = m * RES_SLOTS + (RES_X1 if slot == 0 else RES_X2)
                        cand[n, C_JOKERS] = -1
                        cand[n, C_FREED] = 1
                        cand[n, C_JPOS] = jpos
                    _add_card(cand, n, kind)
                    n += 1
                    freed += 1
        elif table[m, T_KIND] == KIND_SET:
            before = n
            n = _set_add_candidates_nb(counts, jokers, table, m, exchanges, True, tabs, cand, n)
            freed += 1 if n > before else 0
    n = _run_candidates_nb(counts, jokers + freed, tabs, cand, n)
    n = _set_candidates_nb(counts, jokers + freed, tabs, cand, n)
    for m in range(n_table):
        if table[m, T_KIND] == KIND_RUN:
            n = _run_block_candidates_nb(counts, jokers, table, m, tabs, cand, n)
        elif table[m, T_KIND] == KIND_SET:
            n = _set_add_candidates_nb(counts, jokers, table, m, exchanges, False, tabs, cand, n)
    return n
