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

from collections import namedtuple

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


#: A stretch of run positions ``lo..hi`` of one suit, grown a position at a time: how
#: many of them the hand misses (the first two: ``gap``, ``gap2``) and their laid value.
Span = namedtuple("Span", ["suit", "lo", "hi", "missing", "gap", "gap2", "value"])


@jit_inline
def _empty_span_nb(suit, at):
    """No positions yet, to be grown from ``at`` (up) or ``at - 1`` (down)."""
    zero = np.int64(0)
    return Span(np.int64(suit), np.int64(at), np.int64(at - 1), zero, zero, zero, zero)


@jit_inline
def _grow_nb(counts, span, p, tabs):
    """``span`` with position ``p`` (next to either end) added."""
    missing = span.missing
    gap = span.gap
    gap2 = span.gap2
    if counts[kind_at_nb(span.suit, p)] == 0:
        missing += 1
        if missing == 1:
            gap = p
        else:
            gap2 = p
    return Span(span.suit, min(span.lo, p), max(span.hi, p), missing, gap, gap2,
                span.value + tabs[TB_POS + p])


@jit_inline
def _too_open_nb(span, jokers):
    """Whether ``jokers`` cannot fill the span's missing positions (nor two side by side)."""
    return span.missing > jokers or (span.missing == 2 and abs(span.gap2 - span.gap) == 1)


@jit_inline
def _covers_nb(span, a, b):
    """Whether jokers at positions ``a`` and ``b`` fill every missing position."""
    if span.missing >= 1 and a != span.gap and b != span.gap:
        return False
    if span.missing == 2 and a != span.gap2 and b != span.gap2:
        return False
    return True


@jit_inline
def _run_move_nb(cand, n, m, side, span, jpos, jpos2):
    """One run move over the span: a new run (``m < 0``), else a block laid off at end
    ``side`` (0 low, 1 high) of table run ``m``; jokers at ``jpos``/``jpos2`` (0 none)."""
    _begin(cand, n, MOVE_NEW_RUN if m < 0 else MOVE_RUN_BLOCK, m, span.value)
    if n < MAX_CANDIDATES:
        row = cand[n]
        row[C_SUIT] = span.suit
        row[C_LO] = span.lo
        row[C_HI] = span.hi
        row[C_JPOS] = jpos
        row[C_JPOS2] = jpos2
        used = (1 if jpos > 0 else 0) + (1 if jpos2 > 0 else 0)
        row[C_JOKERS] = used
        if m < 0:
            row[C_NEWJ] = used
            row[C_PURE] = 1 if used == 0 else 0
        else:
            row[C_RES1] = m * RES_SLOTS + (RES_LOW if side == 0 else RES_HIGH)
            if used > 0:
                row[C_RES2] = m * RES_SLOTS + RES_JOKER
        for p in range(span.lo, span.hi + 1):
            if p != jpos and p != jpos2:
                _add_card(cand, n, kind_at_nb(span.suit, p))
    return n + 1


@jit_inline
def _two_jokers_nb(cand, n, m, side, span):
    """The span's run moves with two jokers, not side by side, covering its missing
    positions (the others stand for cards held)."""
    for a in range(span.lo, span.hi + 1):
        for b in range(a + 2, span.hi + 1):
            if _covers_nb(span, a, b):
                n = _run_move_nb(cand, n, m, side, span, a, b)
    return n


@jit_inline
def _new_runs_nb(cand, n, span, jokers, two):
    """New runs over the span (3+ positions): with two jokers (``two``, 4+ positions),
    with one joker filling the one missing position (not at the low end, unless the run
    ends at the ace: the higher end is listed), or no position missing: the pure run,
    then a joker standing for each held card (``jokers`` held) but the lowest."""
    if two and span.hi - span.lo >= 3:
        n = _two_jokers_nb(cand, n, -1, 0, span)
    if span.missing == 1 and (span.gap != span.lo or span.hi == 14):
        n = _run_move_nb(cand, n, -1, 0, span, span.gap, 0)
    elif span.missing == 0:
        n = _run_move_nb(cand, n, -1, 0, span, 0, 0)
        if jokers > 0:
            for jpos in range(span.lo + 1 if span.hi < 14 else span.lo, span.hi + 1):
                n = _run_move_nb(cand, n, -1, 0, span, jpos, 0)
    return n


@jit_inline
def _blocks_nb(cand, n, m, side, span, cap):
    """Blocks over the span laid off at end ``side`` of table run ``m``: of naturals
    only, with one joker (for the missing position, or any one), with two (``cap``)."""
    if span.missing == 0:
        n = _run_move_nb(cand, n, m, side, span, 0, 0)
    if span.missing <= 1 and cap >= 1:
        for q in range(span.lo, span.hi + 1):
            if span.missing == 0 or q == span.gap:
                n = _run_move_nb(cand, n, m, side, span, q, 0)
    if cap >= 2:
        n = _two_jokers_nb(cand, n, m, side, span)
    return n


@jit_inline
def _suits_held_nb(counts, rank):
    """Bit mask of the suits of ``rank`` with a card in hand."""
    held = 0
    for suit in range(4):
        if counts[suit * 13 + rank] > 0:
            held |= 1 << suit
    return held


@jit_inline
def _bits4_nb(mask):
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


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
            span = _empty_span_nb(suit, lo)
            for hi in range(lo, 15):
                if lo == 1 and hi == 14:
                    break
                span = _grow_nb(counts, span, hi, tabs)
                if _too_open_nb(span, allowed):
                    break
                if hi - lo >= 2:
                    n = _new_runs_nb(cand, n, span, jokers, two)
    return n


@jit
def _set_candidates_nb(counts, jokers, tabs, cand, n):
    """New sets: 3-4 naturals of different suits, or 2-3 and a joker."""
    for rank in range(13):
        present = _suits_held_nb(counts, rank)
        held = _bits4_nb(present)
        if held < 2 or (held == 2 and jokers == 0):
            continue
        for sub in range(1, 16):
            if sub & present != sub:
                continue
            size = _bits4_nb(sub)
            for joker in range(2):
                total = size + joker
                if total < 3 or total > 4 or size < 2 or (joker == 1 and jokers == 0):
                    continue
                n = _set_move_nb(cand, n, -1, rank, sub, -1, joker, tabs)
    return n


@jit_inline
def _set_move_nb(cand, n, m, rank, sub, x, joker, tabs):
    """A new set (``m < 0``) or cards added to table set ``m`` of ``rank``: the naturals
    of suits ``sub``, a joker if ``joker``, and with ``x >= 0`` the natural of suit
    ``x`` exchanged for the table set's joker."""
    ex = 1 if x >= 0 else 0
    size = _bits4_nb(sub) + joker + ex
    _begin(cand, n, MOVE_NEW_SET if m < 0 else MOVE_SET_ADD, m, size * tabs[TB_SET + rank])
    if n < MAX_CANDIDATES:
        row = cand[n]
        row[C_RANK] = rank
        row[C_SUITS] = sub
        row[C_JOKERS] = joker - ex
        row[C_JPOS] = joker
        if m < 0:
            row[C_NEWJ] = joker
        else:
            row[C_RES1] = m * RES_SLOTS + RES_SET
            row[C_XSUIT] = x
            row[C_FREED] = ex
    for suit in range(4):
        if sub >> suit & 1 or suit == x:
            _add_card(cand, n, suit * 13 + rank)
    return n + 1


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
        span = _empty_span_nb(suit, lo if side == 0 else hi + 1)
        for k in range(1, 14):
            p = lo - k if side == 0 else hi + k
            if p < 1 or p > 14 or (p == 1 and hi == 14) or (p == 14 and lo == 1):
                break
            span = _grow_nb(counts, span, p, tabs)
            if _too_open_nb(span, cap):
                break
            n = _blocks_nb(cand, n, m, side, span, cap)
    return n


@jit_inline
def _exchange_ok_nb(x, with_exchange, exchanges, has_joker, avail):
    """Whether suit ``x`` (-1: none) is an exchange for a set's joker this pass allows."""
    if (x >= 0) != with_exchange:
        return False
    if x >= 0 and (not exchanges or has_joker == 0 or not avail >> x & 1):
        return False
    return True


@jit
def _set_add_candidates_nb(counts, jokers, table, m, exchanges, with_exchange, tabs, cand, n):
    """Cards added to table set ``m`` (missing suits, a joker if it holds none), with
    (``with_exchange``) or without the exchange of its joker for a natural of a missing
    suit: one move per combination, so no suit is used twice."""
    rank = table[m, T_RANK]
    has_joker = table[m, T_JOKER]
    size = table[m, T_SIZE]
    avail = (15 & ~table[m, T_SUITS]) & _suits_held_nb(counts, rank)
    if avail == 0 and (jokers == 0 or has_joker != 0 or with_exchange):
        return n  # nothing of this rank in hand, and no joker to add
    add_joker = 1 if has_joker == 0 and jokers > 0 else 0
    for x in range(-1, 4):
        if not _exchange_ok_nb(x, with_exchange, exchanges, has_joker, avail):
            continue
        free = avail & ~(1 << x if x >= 0 else 0)
        for sub in range(16):
            if sub & free != sub:
                continue
            count = _bits4_nb(sub)
            for addj in range(add_joker + 1):
                if size + count + addj <= 4 and (x >= 0 or count + addj > 0):
                    n = _set_move_nb(cand, n, m, rank, sub, x, addj, tabs)
    return n


@jit
def candidate_moves_nb(counts, table, n_table, exchanges, tabs, cand):
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
