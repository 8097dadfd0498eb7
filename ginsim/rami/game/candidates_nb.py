"""Rami candidates: every move of a hand against the table, as kernels.

The moves are those of :mod:`ginsim.rami.game.moves_nb` (its row layout and writers): new
runs grown position by position over a :data:`~ginsim.rami.game.moves_nb.Span`, new sets
from the suits held of a rank, blocks laid off at either end of a table run, cards
added to a table set (with or without exchanging its joker), and a run's joker
exchanged for the natural it stands for. Moves past ``MAX_CANDIDATES`` are counted, not
written. Kernels allocate nothing: the caller hands every array.
"""

import numpy as np

from ...game._jit import jit, jit_inline
from .moves_nb import (
    C_FREED,
    C_JOKERS,
    C_JPOS,
    C_RES1,
    JOKER,
    KIND_RUN,
    KIND_SET,
    MAX_CANDIDATES,
    MOVE_RUN_EXCHANGE,
    RES_SLOTS,
    RES_X1,
    RES_X2,
    T_HI,
    T_JOKER,
    T_JOKER2,
    T_KIND,
    T_LO,
    T_RANK,
    T_SIZE,
    T_SUIT,
    T_SUITS,
    Span,
    add_card_nb,
    begin_move_nb,
    bits4_nb,
    kind_at_nb,
    run_move_nb,
    set_move_nb,
    suits_held_nb,
)
from .tables import TB_JPM, TB_POS


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


@jit  # out of line: only jokers_per_meld=2 gets here, and inlined it doubles the compile
def _two_jokers_nb(cand, n, m, side, span):
    """The span's run moves with two jokers, not side by side, covering its missing
    positions (the others stand for cards held)."""
    for a in range(span.lo, span.hi + 1):
        for b in range(a + 2, span.hi + 1):
            if _covers_nb(span, a, b):
                n = run_move_nb(cand, n, m, side, span, a, b)
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
        first, last, pure = span.gap, span.gap, 0
    elif span.missing == 0:
        first = span.lo + 1 if span.hi < 14 else span.lo
        last = span.hi if jokers > 0 else first - 1
        pure = 1
    else:
        return n
    for j in range(first - pure, last + 1):  # first - 1: the pure run, no joker
        n = run_move_nb(cand, n, -1, 0, span, j if j >= first else 0, 0)
    return n


@jit_inline
def _blocks_nb(cand, n, m, side, span, cap):
    """Blocks over the span laid off at end ``side`` of table run ``m``: of naturals
    only, then with one joker (for the missing position, or any one), then with two
    (``cap``)."""
    if span.missing <= 1:
        for j in range(span.lo - 1, span.hi + 1):  # lo - 1: no joker
            if j < span.lo and span.missing != 0:
                continue
            if j >= span.lo and (cap < 1 or (span.missing == 1 and j != span.gap)):
                continue
            n = run_move_nb(cand, n, m, side, span, j if j >= span.lo else 0, 0)
    if cap >= 2:
        n = _two_jokers_nb(cand, n, m, side, span)
    return n


@jit_inline
def _may_start_nb(counts, suit, lo, jokers):
    """Whether a new run may begin at position ``lo``: with the card held, or with a
    joker for it before a held card."""
    return counts[kind_at_nb(suit, lo)] > 0 or (
        jokers > 0 and counts[kind_at_nb(suit, lo + 1)] > 0)


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
            if not _may_start_nb(counts, suit, lo, jokers):
                continue
            span = _empty_span_nb(suit, lo)
            for hi in range(lo, 14 if lo == 1 else 15):  # never both aces
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
        present = suits_held_nb(counts, rank)
        held = bits4_nb(present)
        if held < 2 or (held == 2 and jokers == 0):
            continue
        for sub in range(1, 16):
            if sub & present != sub:
                continue
            size = bits4_nb(sub)
            for joker in range(2):
                total = size + joker
                if total < 3 or total > 4 or size < 2 or (joker == 1 and jokers == 0):
                    continue
                n = set_move_nb(cand, n, -1, rank, sub, -1, joker, tabs)
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


@jit_inline
def _set_adds_nb(cand, n, table, m, free, x, add_joker, tabs):
    """Every addition to table set ``m`` of the suits in ``free`` (and a joker, if
    ``add_joker``) along with exchange ``x`` (-1 none); an addition adds something."""
    for sub in range(16):
        if sub & free != sub:
            continue
        count = bits4_nb(sub)
        for addj in range(add_joker + 1):
            if table[m, T_SIZE] + count + addj <= 4 and (x >= 0 or count + addj > 0):
                n = set_move_nb(cand, n, m, table[m, T_RANK], sub, x, addj, tabs)
    return n


@jit
def _set_add_candidates_nb(counts, table, m, exchanges, with_exchange, tabs, cand, n):
    """Cards added to table set ``m`` (missing suits, a joker if it holds none), with
    (``with_exchange``) or without the exchange of its joker for a natural of a missing
    suit: one move per combination, so no suit is used twice."""
    jokers = counts[JOKER]
    has_joker = table[m, T_JOKER]
    avail = (15 & ~table[m, T_SUITS]) & suits_held_nb(counts, table[m, T_RANK])
    if avail == 0 and (jokers == 0 or has_joker != 0 or with_exchange):
        return n  # nothing of this rank in hand, and no joker to add
    add_joker = 1 if has_joker == 0 and jokers > 0 else 0
    for x in range(-1, 4):
        if _exchange_ok_nb(x, with_exchange, exchanges, has_joker, avail):
            free = avail & ~(1 << x if x >= 0 else 0)
            n = _set_adds_nb(cand, n, table, m, free, x, add_joker, tabs)
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
                    begin_move_nb(cand, n, MOVE_RUN_EXCHANGE, m, tabs[TB_POS + jpos])
                    if n < MAX_CANDIDATES:
                        cand[n, C_RES1] = m * RES_SLOTS + (RES_X1 if slot == 0 else RES_X2)
                        cand[n, C_JOKERS] = -1
                        cand[n, C_FREED] = 1
                        cand[n, C_JPOS] = jpos
                    add_card_nb(cand, n, kind)
                    n += 1
                    freed += 1
        elif table[m, T_KIND] == KIND_SET:
            before = n
            n = _set_add_candidates_nb(counts, table, m, exchanges, True, tabs, cand, n)
            freed += 1 if n > before else 0
    n = _run_candidates_nb(counts, jokers + freed, tabs, cand, n)
    n = _set_candidates_nb(counts, jokers + freed, tabs, cand, n)
    for m in range(n_table):
        if table[m, T_KIND] == KIND_RUN:
            n = _run_block_candidates_nb(counts, jokers, table, m, tabs, cand, n)
        elif table[m, T_KIND] == KIND_SET:
            n = _set_add_candidates_nb(counts, table, m, exchanges, False, tabs, cand, n)
    return n
