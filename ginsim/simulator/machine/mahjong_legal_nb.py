"""Mahjong gin's legal list: the actions that
:func:`~ginsim.simulator.machine.mahjong_nb.mahjong_step_nb` accepts in the phase in
front of the seat to move, as knocking gin's :func:`~ginsim.simulator.machine.step_nb.legal_nb`
lists its own (rows ``(kind, card, kept)``, the encoding of the step's table in
:mod:`ginsim.simulator.machine.mahjong_nb`).

The draw: the stock (while it has a card) and each pile depth :func:`take_error_nb`
allows. The discard phase: every meld of the hand (3-4 cards of a rank, 3+ consecutive
cards of a suit, around the corner where the rules' runs wrap), every way to extend
each table meld from the hand, then each discard and going out without one, unless a
multi-card take's lowest card must still be laid. No scratch is touched but the plan
search's (the draw's depth check only), so a turn's plan survives a listing of its
discard phase.
"""

from ...game._jit import jit
from ...game.melds_nb import RANK_COLUMN
from ...game.rules import R_MJ_DISCARD_OUT
from ...game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_EXTEND,
    A_MELD,
    A_PILE,
    A_STOCK,
    PH_DISCARD,
    PH_DRAW,
    ST_FORBIDDEN,
    ST_HAND,
    ST_MUST_LAY,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_POS,
    ST_TABLE,
    ST_TABLE_N,
    ST_TO_MOVE,
)
from ...strategies.mahjong_plan_nb import best_plan_nb, can_lay_nb, is_meld_nb
from .errors import ERR_DEPTH, ERR_LOWEST, ERR_STUCK, OK
from .step_nb import add_legal_nb

#: Rows :func:`mahjong_legal_nb` may write: the stock and 52 depths; every meld and
#: extension (runs: 4 suits x 13 starts x 11 lengths, sets: 13 ranks x 5, for the hand
#: and once per table meld) and 52 discards and going out.
MJ_MAX_LEGAL = 1 + 52 + (4 * 13 * 11 + 13 * 5) * 19 + 52 + 1


@jit
def take_error_nb(board, seat, depth, rules, tab):
    """Why ``seat`` may not take the top ``depth`` cards of the pile (an ERR_* code),
    OK when it may: the pile holds them; with two or more, their lowest can be laid this
    turn and some way to finish the turn remains (laying it, then discarding a card not
    taken, or going out). Uses the plan search's scratch."""
    hs = board.hs
    n = hs[ST_PILE_LEN]
    if depth < 1 or depth > n:
        return ERR_DEPTH
    low = hs[ST_PILE + n - depth]
    cards = 0
    for i in range(n - depth, n):
        cards |= 1 << hs[ST_PILE + i]
    hand = hs[ST_HAND + seat]
    if depth > 1 and not can_lay_nb(hand | cards, low, hs, tab):
        return ERR_LOWEST
    must = (1 << low) if depth > 1 else 0
    if best_plan_nb(hand | cards, hand, must, True, rules[R_MJ_DISCARD_OUT] != 0, board,
                    tab)[0] < 0:
        return ERR_STUCK
    return OK


@jit
def run_mask_nb(suit, start, length):
    """The cards of ``suit`` from rank ``start`` on, ``length`` of them, around the
    corner past the king (whether the rules allow that is the meld test's)."""
    mask = 0
    for k in range(length):
        mask |= 1 << (13 * suit + (start + k) % 13)
    return mask


@jit
def add_melds_nb(out, n, kind, slot, base, cards, tab):
    """Rows for every meld ``base | piece`` with ``piece`` a non-empty set of ``cards``
    (``base`` 0: new melds, ``A_MELD``; else table meld ``slot``, ``A_EXTEND``)."""
    for rank in range(13):
        column = RANK_COLUMN << rank
        if base & ~column:
            continue
        free = cards & column
        sub = free
        while sub:
            if is_meld_nb(base | sub, tab):
                n = add_legal_nb(out, n, kind, slot, sub)
            sub = (sub - 1) & free
    for suit in range(4):
        for start in range(13):
            for length in range(3, 14):
                if length == 13 and start > 0:
                    break
                run = run_mask_nb(suit, start, length)
                if run & base != base or run == base or (run & ~base) & ~cards:
                    continue
                if is_meld_nb(run, tab):
                    n = add_legal_nb(out, n, kind, slot, run & ~base)
    return n


@jit
def mahjong_legal_nb(board, rules, tab, out):
    """The actions open to the seat to move under Mahjong gin, as rows ``(kind, card,
    kept)`` of ``out`` (int64[MJ_MAX_LEGAL, 3]); returns how many (0 once the hand is
    over)."""
    hs = board.hs
    phase = hs[ST_PHASE]
    seat = hs[ST_TO_MOVE]
    n = 0
    if phase == PH_DRAW:
        if hs[ST_POS] < 52:
            n = add_legal_nb(out, n, A_STOCK, -1, 0)
        for depth in range(1, hs[ST_PILE_LEN] + 1):
            if take_error_nb(board, seat, depth, rules, tab) == OK:
                n = add_legal_nb(out, n, A_PILE, -1, depth)
        return n
    if phase != PH_DISCARD:
        return 0
    hand = hs[ST_HAND + seat]
    n = add_melds_nb(out, n, A_MELD, -1, 0, hand, tab)
    for slot in range(hs[ST_TABLE_N]):
        n = add_melds_nb(out, n, A_EXTEND, slot, hs[ST_TABLE + slot], hand, tab)
    if hs[ST_MUST_LAY] != 0:
        return n
    for c in range(52):
        if (hand >> c) & 1 and (hs[ST_FORBIDDEN] >> c) & 1 == 0:
            n = add_legal_nb(out, n, A_DISCARD, c, 0)
    if hand == 0 and rules[R_MJ_DISCARD_OUT] == 0:
        n = add_legal_nb(out, n, A_BIG_GIN, -1, 0)
    return n
