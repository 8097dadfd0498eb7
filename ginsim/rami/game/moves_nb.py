"""Rami moves: the table and candidate-move row layouts and the kernels that write a row.

A hand is int64[53] kind counts (:mod:`ginsim.rami.game.cards`). The table is an int64
array ``table[m, T_*]``: a set (rank, natural suits bit mask, joker flag) or a run
(suit, lowest and highest position, the joker's position; positions 1 = ace low ..
14 = ace high). ``tabs`` is :func:`ginsim.rami.game.tables.rami_tables`.

A *candidate* is one move of a turn, a row ``cand[i, C_*]``: a new set or run from the
hand (a joker in at most one slot), a block of cards laid off at one end of a table
run, cards (a joker too) added to a table set, or a tabled joker exchanged for the
natural card it stands for. Each consumes hand cards (each kind at most once) and uses
table *resources* (one end of a run, a set's free slots, a meld's joker slot), so two
moves that would touch the same end of a meld never combine. The search over them is
:mod:`ginsim.rami.game.melds_nb`; which moves a hand has is :mod:`ginsim.rami.game.candidates_nb`.
Kernels allocate nothing: the caller hands every array.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit_inline
from .tables import TB_SET

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
def begin_move_nb(cand, n, move, target, value):
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
def add_card_nb(cand, n, kind):
    if n < MAX_CANDIDATES:
        k = cand[n, C_NC]
        cand[n, C_CARDS + k] = kind
        cand[n, C_NC] = k + 1
        cand[n, C_MASK] |= np.int64(1) << kind


#: A stretch of run positions ``lo..hi`` of one suit, grown a position at a time: how
#: many of them the hand misses (the first two: ``gap``, ``gap2``) and their laid value.
Span = namedtuple("Span", ["suit", "lo", "hi", "missing", "gap", "gap2", "value"])


@jit_inline
def run_move_nb(cand, n, m, side, span, jpos, jpos2):
    """One run move over the span: a new run (``m < 0``), else a block laid off at end
    ``side`` (0 low, 1 high) of table run ``m``; jokers at ``jpos``/``jpos2`` (0 none)."""
    begin_move_nb(cand, n, MOVE_NEW_RUN if m < 0 else MOVE_RUN_BLOCK, m, span.value)
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
                add_card_nb(cand, n, kind_at_nb(span.suit, p))
    return n + 1


@jit_inline
def set_move_nb(cand, n, m, rank, sub, x, joker, tabs):
    """A new set (``m < 0``) or cards added to table set ``m`` of ``rank``: the naturals
    of suits ``sub``, a joker if ``joker``, and with ``x >= 0`` the natural of suit
    ``x`` exchanged for the table set's joker."""
    ex = 1 if x >= 0 else 0
    size = bits4_nb(sub) + joker + ex
    begin_move_nb(cand, n, MOVE_NEW_SET if m < 0 else MOVE_SET_ADD, m, size * tabs[TB_SET + rank])
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
            add_card_nb(cand, n, suit * 13 + rank)
    return n + 1


@jit_inline
def suits_held_nb(counts, rank):
    """Bit mask of the suits of ``rank`` with a card in hand."""
    held = 0
    for suit in range(4):
        if counts[suit * 13 + rank] > 0:
            held |= 1 << suit
    return held


@jit_inline
def bits4_nb(mask):
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)
