"""The machine's two entries: :func:`step_nb` applies one action of the seat to move and
moves the phase on; :func:`legal_nb` lists the actions of the phase in front of it.

Every driver (the hand loop, games, the knock chart's branches, the advisor's and the
mc seat's rollouts, the Table and an agent's own view) plays a hand as a loop ``while
the hand is not over: step(board, policy(...))``. The turn order exists only in the
phase each move leaves (:mod:`ginsim.simulator.machine.board_nb`): the upcard offers
(non-dealer, then dealer; after both pass the non-dealer's draw is from the stock), the
draw, the discard or knock, the stock floor and the 50th-card turn, the end.

An action is ``(kind, card, kept)``: ``kind`` one of
:data:`~ginsim.game.state.ACTION_KINDS`, ``card`` the
discard (or -1), ``kept`` the deadwood the discard keeps, which the policies have
already computed (:func:`checked_step_nb` computes it for a move from outside). The
kinds are also the one encoding of a hand's events: an action applied is the event.
Mahjong gin's actions (its pile takes of several cards, ``meld`` and ``extend``) are
those of its own step, :func:`~ginsim.simulator.machine.mahjong_nb.mahjong_step_nb`;
``step_nb`` refuses ``meld`` and ``extend`` as moves of no knocking-gin phase.
"""

from ...game._jit import jit, jit_inline
from ...game.melds_nb import NO_DISCARD, W_DISCARD, best_discard_nb
from ...game.rules import R_BIG_GIN_BONUS
from ...game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    PH_DISCARD,
    PH_DRAW,
    PH_LAST_DISCARD,
    PH_OFFER,
    PH_OVER,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_TO_MOVE,
)
from .board_nb import (
    apply_discard_nb,
    apply_draw_nb,
    apply_last_discard_nb,
    apply_offer_nb,
    discard_options_nb,
    draw_stock_nb,
    pile_allowed_nb,
    put_discard_nb,
    take_pile_top_nb,
)
from .errors import ERR_BIG_GIN, ERR_MUST_KNOCK, ERR_NOT_HELD, ERR_PHASE, ERR_TURN, OK

#: Rows :func:`legal_nb` may write: a discard and a knock per card, and three more.
MAX_LEGAL = 2 * 52 + 3
LEGAL_KIND, LEGAL_CARD, LEGAL_KEPT = range(3)


@jit_inline
def step_nb(hs, seat, kind, card, kept, rules):
    """Apply ``seat``'s action ``(kind, card, kept)`` and move the phase on. Returns
    ``OK`` or an ``ACTION_*`` code (>= 0), or ``-ERR_*`` with the position unchanged
    when the action is not one of this phase's, out of turn or illegal. ``kept`` is
    trusted (the caller's deadwood of the cards kept)."""
    phase = hs[ST_PHASE]
    if phase >= PH_OVER or phase < PH_OFFER:
        return -ERR_PHASE
    if seat != hs[ST_TO_MOVE]:
        return -ERR_TURN
    if phase == PH_OFFER:
        if kind != A_TAKE and kind != A_PASS:
            return -ERR_PHASE
        return apply_offer_nb(hs, seat, kind == A_TAKE)
    if phase == PH_DRAW:
        if kind != A_PILE and kind != A_STOCK:
            return -ERR_PHASE
        return apply_draw_nb(hs, seat, kind == A_PILE)
    if phase == PH_DISCARD:
        if kind < A_DISCARD or kind > A_BIG_GIN:  # Mahjong gin's lays are not knocking gin's
            return -ERR_PHASE
        return apply_discard_nb(hs, seat, card, kept, kind != A_DISCARD, kind == A_BIG_GIN,
                                rules)
    return last_discard_step_nb(hs, seat, kind, card, kept, rules)


@jit
def apply_step_nb(hs, seat, kind, card, kept, rules):
    """:func:`step_nb` compiled once as a kernel of its own, for callers off the hot
    path (a branch point, a move at the Table, a search's chosen move): each inlined
    copy of the step is typed again in its caller, which costs compile time where the
    call's speed does not matter."""
    return step_nb(hs, seat, kind, card, kept, rules)


@jit
def last_discard_step_nb(hs, seat, kind, card, kept, rules):
    """:func:`step_nb` in the 50th-card turn: pass, or take the final discard to knock
    (discarding ``card``) or go big gin; a plain discard is refused."""
    if kind == A_PASS:
        return apply_last_discard_nb(hs, seat, False, -1, 0, False, False, rules)
    if kind == A_KNOCK or kind == A_BIG_GIN:
        return apply_last_discard_nb(hs, seat, True, card, kept, kind == A_KNOCK,
                                     kind == A_BIG_GIN, rules)
    return -ERR_MUST_KNOCK if kind == A_DISCARD else -ERR_PHASE


@jit
def kept_deadwood_nb(board, seat, card, tab):
    """The deadwood ``seat`` keeps after discarding ``card`` from its cards (with the
    pile's top card first, in the 50th-card turn) and whether all of them meld:
    ``(kept, all_melded)``; ``kept`` is ``NO_DISCARD`` where the card may not go."""
    hs, work = board.hs, board.work
    hand = hs[ST_HAND + seat]
    forbidden = hs[ST_FORBIDDEN]
    if hs[ST_PHASE] == PH_LAST_DISCARD:
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        hand |= 1 << top
        forbidden = 1 << top
    _, _, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, work, True)
    if card < 0 or card > 51 or (hand >> card) & 1 == 0 or (forbidden >> card) & 1:
        return NO_DISCARD, all_melded
    return work[W_DISCARD + card], all_melded


@jit
def checked_step_nb(board, seat, kind, card, rules, tab):
    """:func:`step_nb` for a move from outside (the Table, an agent's referee): the
    deadwood kept is computed here (scratch ``board.work``), big gin only with every
    card melded under rules that have it, a card not held refused."""
    hs = board.hs
    phase = hs[ST_PHASE]
    if (phase == PH_DISCARD or phase == PH_LAST_DISCARD) and seat == hs[ST_TO_MOVE] and (
            kind == A_DISCARD or kind == A_KNOCK or kind == A_BIG_GIN):
        kept, all_melded = kept_deadwood_nb(board, seat, card, tab)
        if kind == A_BIG_GIN:
            if rules[R_BIG_GIN_BONUS] < 0:
                return -ERR_BIG_GIN
            if not all_melded:
                return -ERR_NOT_HELD
            return apply_step_nb(hs, seat, kind, -1, 0, rules)
        if kept == NO_DISCARD and phase == PH_DISCARD and (
                card < 0 or card > 51 or (hs[ST_HAND + seat] >> card) & 1 == 0):
            return -ERR_NOT_HELD
        return apply_step_nb(hs, seat, kind, card, kept, rules)
    return apply_step_nb(hs, seat, kind, card, 0, rules)


@jit
def add_legal_nb(out, n, kind, card, kept):
    out[n, LEGAL_KIND] = kind
    out[n, LEGAL_CARD] = card
    out[n, LEGAL_KEPT] = kept
    return n + 1


@jit
def legal_nb(board, rules, tab, options, out):
    """The actions open to the seat to move, as rows ``(kind, card, kept)`` of ``out``
    (int64[MAX_LEGAL, 3]); returns how many (0 once the hand is over). ``options`` is
    int64[52] scratch (the deadwood each discard keeps)."""
    hs = board.hs
    phase = hs[ST_PHASE]
    n = 0
    if phase == PH_OFFER:
        n = add_legal_nb(out, n, A_TAKE, -1, 0)
        return add_legal_nb(out, n, A_PASS, -1, 0)
    if phase == PH_DRAW:
        n = add_legal_nb(out, n, A_STOCK, -1, 0)
        if pile_allowed_nb(hs):
            n = add_legal_nb(out, n, A_PILE, -1, 0)
        return n
    if phase != PH_DISCARD and phase != PH_LAST_DISCARD:
        return 0
    seat = hs[ST_TO_MOVE]
    hand = hs[ST_HAND + seat]
    forbidden = hs[ST_FORBIDDEN]
    if phase == PH_LAST_DISCARD:
        n = add_legal_nb(out, n, A_PASS, -1, 0)
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        hand |= 1 << top
        forbidden = 1 << top
    all_melded = discard_options_nb(hand, forbidden, tab, board.work, options)
    limit = hs[ST_KNOCK_LIMIT]
    if phase == PH_DISCARD:
        for c in range(52):
            if options[c] >= 0:
                n = add_legal_nb(out, n, A_DISCARD, c, options[c])
    for c in range(52):
        if 0 <= options[c] <= limit:
            n = add_legal_nb(out, n, A_KNOCK, c, options[c])
    if all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        n = add_legal_nb(out, n, A_BIG_GIN, -1, 0)
    return n


@jit
def replay_step_nb(hs, seat, kind, card, kept, rules):
    """Replay mode: move the cards of ``seat``'s action ``(kind, card, kept)`` without
    checking it or reading it for what it declines, and move the phase on. For positions
    built from guesses (the belief's replay of a history, the advisor's and the mc
    seat's worlds), where the phase and the cards in front of the seat are laid by the
    caller. Returns the ``ACTION_*`` code of a discard, else ``OK``."""
    if kind == A_TAKE or kind == A_PILE:
        take_pile_top_nb(hs, seat)
        return OK
    if kind == A_STOCK:
        draw_stock_nb(hs, seat)
        return OK
    if kind == A_PASS:
        return apply_offer_nb(hs, seat, False)
    return put_discard_nb(hs, seat, card, kept, kind != A_DISCARD, kind == A_BIG_GIN, rules)
