"""The machine's board: the moves that change a hand and the phase each leaves, free of
decisions.

Numba functions over the int64 hand state ``hs`` (:mod:`ginsim.game.state`) that
allocate nothing. The phase is part of the hand state (``hs[ST_PHASE]``, a ``PH_*``
code, and the seat to act, ``hs[ST_TO_MOVE]``). One ``apply`` per phase moves the hand
on and returns ``OK`` or ``-ERR_*`` without changing the position when the move is
illegal; the transitions between them are the only place the turn order is written:

- :func:`apply_offer_nb` (``PH_OFFER``): take the upcard or pass it (after the
  dealer's pass the non-dealer draws from the stock);
- :func:`apply_draw_nb` (``PH_DRAW``): the pile's top card or the stock's;
- :func:`apply_discard_nb` (``PH_DISCARD``): discard, knock (never above the hand's
  knock limit, ``hs[ST_KNOCK_LIMIT]``) or big gin, then the next draw, the stock floor
  (:func:`end_phase_nb`) or the end; returns the ``ACTION_*`` code;
- :func:`apply_last_discard_nb` (``PH_LAST_DISCARD``): the 50th-card rule's knock with
  the final discard, or a pass that leaves the hand dead.

The low-level moves (:func:`take_pile_top_nb`, :func:`draw_stock_nb`,
:func:`put_discard_nb`) keep the phase fields right but check nothing. Drivers call none
of these: they step the machine (:mod:`ginsim.simulator.machine.step_nb`), whose
``step_nb`` dispatches to the phase's ``apply`` and whose replay mode uses the low-level
moves. The deal and the layouts of positions made elsewhere are
:mod:`ginsim.simulator.machine.deal_nb`. Mahjong gin's moves are
:mod:`ginsim.simulator.machine.mahjong_nb`.
"""


from ...game._jit import jit, jit_inline
from ...game.melds_nb import W_DISCARD, best_discard_nb
from ...game.rules import (
    R_BIG_GIN_BONUS,
    R_LAST_DISCARD,
    R_STOCK_FLOOR,
)
from ...game.state import (
    ENDING_BIG_GIN,
    ENDING_DEAD,
    ENDING_KNOCK,
    PH_DEAD,
    PH_DISCARD,
    PH_DRAW,
    PH_LAST_DISCARD,
    PH_OFFER,
    PH_OVER,
    SOURCE_PILE,
    SOURCE_STOCK,
    ST_DEALER,
    ST_DECK,
    ST_DISCARDED,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_HAND_ID,
    ST_KNOCK_DEADWOOD,
    ST_KNOCK_LIMIT,
    ST_KNOCKER,
    ST_PASSED,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_PLAN_BIG_GIN,
    ST_PLAN_DEADWOOD,
    ST_PLAN_DISCARD,
    ST_PLAN_KNOCK,
    ST_PLANNED,
    ST_POS,
    ST_SOURCE,
    ST_STOCK_ONLY,
    ST_TAKEN,
    ST_TO_MOVE,
    ST_TRACE_ROW,
    ST_TURNS,
    ST_UPCARD,
    ST_UPCARD_TAKEN,
)
from .deal_nb import (  # noqa: F401  (re-exported: the board's deal)
    clear_position_nb,
    copy_position_nb,
    deal_nb,
    lay_deal_nb,
    lay_position_nb,
    oklahoma_limit_nb,
    seat_streams_nb,
    shuffle_deck_nb,
)
from .errors import (
    ERR_BIG_GIN,
    ERR_FORBIDDEN,
    ERR_KNOCK_LIMIT,
    ERR_MUST_KNOCK,
    ERR_NOT_HELD,
    ERR_PHASE,
    ERR_PILE,
    ERR_TURN,
    OK,
)
from .records import (
    ACTION_BIG_GIN,
    ACTION_DEAD,
    ACTION_DISCARD,
    ACTION_KNOCK,
    TRACE_ACTION,
    TRACE_DISCARD,
    TRACE_DRAWN,
    TRACE_HAND,
    TRACE_HAND_A,
    TRACE_HAND_B,
    TRACE_PILE,
    TRACE_SEAT,
    TRACE_SOURCE,
    TRACE_STOCK,
    TRACE_STOCK_LEFT,
    TRACE_TURN,
)

MAX_TURNS = 500  # a hand still running after this many draws is scored as dead



@jit
def pile_top_nb(hs):
    """The discard pile's top card, -1 when the pile is empty."""
    n = hs[ST_PILE_LEN]
    return hs[ST_PILE + n - 1] if n > 0 else -1


@jit_inline
def pile_allowed_nb(hs):
    """Whether the seat to draw may take the pile's top card: the pile is not empty and
    this is not the draw forced on the non-dealer after both passed the upcard."""
    return hs[ST_PILE_LEN] > 0 and hs[ST_STOCK_ONLY] == 0


@jit
def take_pile_top_nb(hs, seat):
    """``seat`` takes the pile's top card (a draw); returns the card. Unchecked."""
    hs[ST_PILE_LEN] -= 1
    card = hs[ST_PILE + hs[ST_PILE_LEN]]
    hs[ST_PILE_MASK] &= ~(1 << card)
    hs[ST_HAND + seat] |= 1 << card
    hs[ST_TAKEN + seat] |= 1 << card
    hs[ST_PILE_TAKES + seat] += 1
    hs[ST_TURNS] += 1
    hs[ST_DRAWN] = card
    hs[ST_SOURCE] = SOURCE_PILE
    hs[ST_FORBIDDEN] = 1 << card
    hs[ST_STOCK_ONLY] = 0
    hs[ST_PHASE] = PH_DISCARD
    hs[ST_TO_MOVE] = seat
    return card


@jit
def draw_stock_nb(hs, seat):
    """``seat`` draws the stock's top card; returns the card. Unchecked."""
    card = hs[ST_DECK + hs[ST_POS]]
    hs[ST_POS] += 1
    hs[ST_HAND + seat] |= 1 << card
    hs[ST_TURNS] += 1
    hs[ST_DRAWN] = card
    hs[ST_SOURCE] = SOURCE_STOCK
    hs[ST_FORBIDDEN] = 0
    hs[ST_STOCK_ONLY] = 0
    hs[ST_PHASE] = PH_DISCARD
    hs[ST_TO_MOVE] = seat
    return card


@jit
def apply_offer_nb(hs, seat, take):
    """The offer phase: ``seat`` takes the upcard (then discards) or passes it; after
    the dealer's pass the non-dealer must draw from the stock. Returns OK or -ERR_*."""
    if hs[ST_PHASE] != PH_OFFER:
        return -ERR_PHASE
    if seat != hs[ST_TO_MOVE]:
        return -ERR_TURN
    if take:
        take_pile_top_nb(hs, seat)
        hs[ST_UPCARD_TAKEN] = 1
        return OK
    hs[ST_PASSED + seat] |= 1 << hs[ST_UPCARD]
    if seat == hs[ST_DEALER]:
        hs[ST_PHASE] = PH_DRAW
        hs[ST_STOCK_ONLY] = 1
    hs[ST_TO_MOVE] = 1 - seat
    return OK


@jit_inline
def apply_draw_nb(hs, seat, from_pile):
    """The draw phase: ``seat`` takes the pile's top card or draws from the stock (a
    stock draw declines the pile's top card, when the pile was allowed). Returns OK or
    -ERR_*."""
    if hs[ST_PHASE] != PH_DRAW:
        return -ERR_PHASE
    if seat != hs[ST_TO_MOVE]:
        return -ERR_TURN
    allowed = pile_allowed_nb(hs)
    if from_pile:
        if not allowed:
            return -ERR_PILE
        take_pile_top_nb(hs, seat)
        return OK
    if allowed:
        hs[ST_PASSED + seat] |= 1 << hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    draw_stock_nb(hs, seat)
    return OK


@jit_inline
def stock_at_floor_nb(stock_left, floor):
    """Whether a stock of ``stock_left`` cards is at the rules' ``floor`` (or below it):
    no seat draws from it again, so the next discard ends the hand (the 50th-card turn
    first, where the rules have it). The one stock-floor test: the board's, the Python
    checks of positions and histories (a position below the floor is one no hand
    reaches: ``stock_at_floor_nb(stock_left + 1, floor)``)."""
    return stock_left <= floor


@jit_inline
def end_dead_nb(hs):
    """End the hand dead: nobody scores, no seat acts (the stock floor, or a driver's
    refused move)."""
    hs[ST_ENDING] = ENDING_DEAD
    hs[ST_PHASE] = PH_DEAD
    hs[ST_TO_MOVE] = -1


@jit_inline
def keep_plan_nb(hs, discard, deadwood, knock, big_gin):
    """Keep the discard a pile take already chose in the hand state's plan slots, for
    the discard phase (the policy's, carried with the position so a branch carries it)."""
    hs[ST_PLANNED] = 1
    hs[ST_PLAN_DISCARD] = discard
    hs[ST_PLAN_DEADWOOD] = deadwood
    hs[ST_PLAN_KNOCK] = knock
    hs[ST_PLAN_BIG_GIN] = big_gin


@jit_inline
def drop_plan_nb(hs):
    """No discard is planned (a draw without one, or the plan used up)."""
    hs[ST_PLANNED] = 0


@jit
def restart_trace_nb(hs):
    """The next trace row is the trace's first (a driver's run of hands begins)."""
    hs[ST_TRACE_ROW] = 0


@jit_inline
def end_phase_nb(hs, seat, rules):
    """After ``seat``'s discard without a knock: the next seat draws, or the hand is
    dead at the stock floor (the 50th-card rule's offer first, where the rules have
    it). Returns the ACTION_* code."""
    if stock_at_floor_nb(52 - hs[ST_POS], rules[R_STOCK_FLOOR]) or hs[ST_TURNS] >= MAX_TURNS:
        end_dead_nb(hs)
        if rules[R_LAST_DISCARD] != 0 and hs[ST_TURNS] < MAX_TURNS:
            hs[ST_PHASE] = PH_LAST_DISCARD
            hs[ST_TO_MOVE] = 1 - seat
        return ACTION_DEAD
    hs[ST_PHASE] = PH_DRAW
    hs[ST_TO_MOVE] = 1 - seat
    return ACTION_DISCARD


@jit_inline
def put_discard_nb(hs, seat, discard, kept_deadwood, knock, big_gin, rules):
    """Discard, knock (discard, then lay down) or big gin (no discard), unchecked; end
    the hand at the stock floor. Returns the ACTION_* code."""
    if big_gin:
        hs[ST_ENDING] = ENDING_BIG_GIN
        hs[ST_KNOCKER] = seat
        hs[ST_KNOCK_DEADWOOD] = 0
        hs[ST_PHASE] = PH_OVER
        hs[ST_TO_MOVE] = -1
        return ACTION_BIG_GIN
    bit = 1 << discard
    hs[ST_HAND + seat] &= ~bit
    hs[ST_DISCARDED + seat] |= bit
    hs[ST_TAKEN + seat] &= ~bit
    hs[ST_PILE + hs[ST_PILE_LEN]] = discard
    hs[ST_PILE_LEN] += 1
    hs[ST_PILE_MASK] |= bit
    if knock:
        hs[ST_ENDING] = ENDING_KNOCK
        hs[ST_KNOCKER] = seat
        hs[ST_KNOCK_DEADWOOD] = kept_deadwood
        hs[ST_PHASE] = PH_OVER
        hs[ST_TO_MOVE] = -1
        return ACTION_KNOCK
    return end_phase_nb(hs, seat, rules)


@jit_inline
def discard_error_nb(hs, seat, discard, kept_deadwood, knock, big_gin, rules):
    """Why the discard phase refuses this move (an ERR_* code), 0 when it is legal.
    ``kept_deadwood`` is the caller's (the deadwood of the 10 cards kept)."""
    if big_gin:
        return ERR_BIG_GIN if rules[R_BIG_GIN_BONUS] < 0 else OK
    if discard < 0 or discard > 51 or (hs[ST_HAND + seat] >> discard) & 1 == 0:
        return ERR_NOT_HELD
    if (hs[ST_FORBIDDEN] >> discard) & 1:
        return ERR_FORBIDDEN
    if knock and kept_deadwood > hs[ST_KNOCK_LIMIT]:
        return ERR_KNOCK_LIMIT
    return OK


@jit_inline
def apply_discard_nb(hs, seat, discard, kept_deadwood, knock, big_gin, rules):
    """The discard phase's move for ``seat`` with 11 cards: discard ``discard``, knock
    with it (keeping ``kept_deadwood``, at most the hand's knock limit) or big gin.
    Returns the ACTION_* code, or -ERR_* (the position unchanged) when refused: a card
    not held, the card just taken from the pile, a knock above the limit, big gin where
    the rules have none. The phase itself is not checked (branches and constructed
    positions call this directly)."""
    err = discard_error_nb(hs, seat, discard, kept_deadwood, knock, big_gin, rules)
    if err != OK:
        return -err
    return put_discard_nb(hs, seat, discard, kept_deadwood, knock, big_gin, rules)


@jit
def discard_options_nb(hand, forbidden, tab, work, out):
    """The discard phase's options from the 11 cards ``hand``: ``out[c]`` = the deadwood
    kept after discarding card ``c`` (-1 where ``c`` may not be discarded: not held, or
    in ``forbidden``, the card just taken from the pile); a knock with ``c`` is legal
    where that is at most the hand's knock limit. Returns whether all 11 cards meld (big
    gin, where the rules have it). ``work`` is meld scratch (``WORK_SIZE``)."""
    _, _, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, work, True)
    for c in range(52):
        out[c] = work[W_DISCARD + c] if (hand >> c) & 1 and (forbidden >> c) & 1 == 0 else -1
    return all_melded


@jit
def apply_last_discard_nb(hs, seat, take, discard, kept_deadwood, knock, big_gin, rules):
    """The 50th-card rule's phase: ``seat`` passes (the hand stays dead) or takes the
    final discard to knock (``discard``, keeping ``kept_deadwood``) or go big gin.
    Returns the ACTION_* code of the knock, ACTION_DEAD for a pass, or -ERR_*."""
    if hs[ST_PHASE] != PH_LAST_DISCARD:
        return -ERR_PHASE
    if seat != hs[ST_TO_MOVE]:
        return -ERR_TURN
    if not take:
        hs[ST_PHASE] = PH_DEAD
        hs[ST_TO_MOVE] = -1
        return ACTION_DEAD
    if not (knock or big_gin):
        return -ERR_MUST_KNOCK
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    if not big_gin:
        if discard == top:
            return -ERR_FORBIDDEN
        if discard < 0 or discard > 51 or (hs[ST_HAND + seat] >> discard) & 1 == 0:
            return -ERR_NOT_HELD
        if kept_deadwood > hs[ST_KNOCK_LIMIT]:
            return -ERR_KNOCK_LIMIT
    elif rules[R_BIG_GIN_BONUS] < 0:
        return -ERR_BIG_GIN
    hs[ST_ENDING] = -1
    take_pile_top_nb(hs, seat)
    return put_discard_nb(hs, seat, discard, kept_deadwood, True, big_gin, rules)


@jit_inline
def trace_turn_nb(trace, hs, seat, source, drawn, discard, action):
    """Write one trace row (see TRACE_COLUMNS) if the trace has room."""
    row = hs[ST_TRACE_ROW]
    if row < trace.shape[0]:
        stock = 0
        for i in range(hs[ST_POS], 52):
            stock |= 1 << hs[ST_DECK + i]
        trace[row, TRACE_HAND] = hs[ST_HAND_ID]
        trace[row, TRACE_TURN] = hs[ST_TURNS]
        trace[row, TRACE_SEAT] = seat
        trace[row, TRACE_SOURCE] = source
        trace[row, TRACE_DRAWN] = drawn
        trace[row, TRACE_DISCARD] = discard
        trace[row, TRACE_ACTION] = action
        trace[row, TRACE_HAND_A] = hs[ST_HAND]
        trace[row, TRACE_HAND_B] = hs[ST_HAND + 1]
        trace[row, TRACE_PILE] = hs[ST_PILE_MASK]
        trace[row, TRACE_STOCK] = stock
        trace[row, TRACE_STOCK_LEFT] = 52 - hs[ST_POS]
    hs[ST_TRACE_ROW] = row + 1
