"""The Monte Carlo player: every choice by rollouts over posterior-sampled worlds.

Contract as in :mod:`ginsim.simulator.machine.phases_nb`. A seat whose parameter row is of kind
``KIND_MC`` (:mod:`ginsim.strategies.params`) is an mc player; :func:`mc_play_hand_nb`
plays a hand in which one or both seats are, through the same phase primitives as the
hand loop. At each of its choices (the draw, the discard and knock; the upcard offer is
its rollout strategy's) the mc seat samples the opponent's hand from the public history
(:mod:`ginsim.simulator.search.mc_guesses_nb`), lays out ``rollouts`` worlds and plays each
option in every world with the rollout strategies (its own ``rollout`` vector, the
opponent as its ``model``; :mod:`ginsim.simulator.search.rollouts_nb`). It plays what its
rollout strategy would unless another option gains more than ``margin`` standard errors
of the paired difference in the same worlds (the largest such gain): flat Monte Carlo
that takes the best of a few noisy means mostly trades a sound choice for a lucky one
(on 2,000 duplicate deals against memory2:knock=0, +2.79 points a hand with margin 1
against +0.69 with the plain best mean).

What the seat remembers (the events, the guesses, the rows it plays) is its
:class:`~ginsim.simulator.machine.buffers.McMemory` ``mem``, apart from the hand state; each
choice's settings travel as a :class:`~ginsim.simulator.machine.buffers.Search`.

Literal arguments to these kernels are written ``np.int64(...)`` / ``np.bool_(...)``:
numba compiles a separate copy of a callee for every literal value passed to it, and the
mc kernels are large.
"""

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.history import EV_DISCARD, EV_PASS, EV_STOCK, EV_TAKE
from ...game.melds_nb import NO_DISCARD, W_DISCARD, best_discard_nb
from ...game.rules import DEAL_ELEVEN, R_BIG_GIN_BONUS, R_DEAL
from ...game.state import (
    PH_LAST_DISCARD,
    SOURCE_DEAL,
    SOURCE_PILE,
    ST_DEALER,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PLANNED,
    ST_SOURCE,
    ST_UPCARD,
)
from ...strategies.params import SEARCH_CARD, SEARCH_DRAW, SEARCH_KNOCK
from ...strategies.policy_nb import choose_discard_nb, discard_without_knock_nb, pile_decision_nb
from ..machine.board_nb import (
    apply_discard_nb,
    apply_draw_nb,
    apply_offer_nb,
    pile_allowed_nb,
    trace_turn_nb,
)
from ..machine.buffers import Search
from ..machine.deal_nb import deal_nb
from ..machine.phases_nb import discard_nb, draw_nb, last_discard_turn_nb
from ..machine.records import ACTION_DISCARD
from .mc_guesses_nb import prepare_nb
from .mc_memory_nb import (
    add_event_nb,
    discard_event_nb,
    is_mc_nb,
    phase_rows_nb,
    start_hand_memory_nb,
)
from .rollouts_nb import OPT_DISCARD, OPT_STOCK, OPT_TAKE, gain_nb, option_nb, option_value_nb

CANDIDATES = 4  # discards tried by rollouts: the lowest kept deadwood ones


@jit
def lowest_candidate_nb(discard, hand, forbidden):
    """The card of ``hand`` (not ``forbidden``) that keeps the least deadwood in
    ``discard``, the per-card table of the meld scratch (``work[W_DISCARD:]``), and that
    deadwood, taken out of the table; ``(-1, NO_DISCARD)`` when none is left."""
    c = np.int64(-1)
    low = np.int64(NO_DISCARD)
    for x in range(52):
        if (hand >> x) & 1 and (forbidden >> x) & 1 == 0 and discard[x] < low:
            low = discard[x]
            c = x
    if c >= 0:
        discard[c] = NO_DISCARD
    return c, low


@jit
def default_discard_nb(board, me, lowest, may_knock, rules, tab, rng, mem):
    """The rollout strategy's discard for ``me`` (never a knock unless ``may_knock``;
    ``lowest`` is ``(deadwood, card)`` of the hand's best discard): ``(card, kept
    deadwood, knock)``. Leaves the hand's per-card table in the meld scratch for
    :func:`lowest_candidate_nb`."""
    hs = board.hs
    pair = mem.pairs[0]  # the mc seat's own row is the rollout strategy in every pair
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    choice, kept, knock, _ = choose_discard_nb(pair, me, hand, forbidden, board, rules, tab,
                                               rng)
    if knock and not may_knock:
        choice, kept = discard_without_knock_nb(pair, me, hand, forbidden, lowest, board, tab,
                                                rng)
        knock = False
    # the rollout strategy's choice may have reused the meld scratch (a random
    # discard's deadwood), so fill the per-card table again
    best_discard_nb(hand, forbidden, 0, tab, board.work, True)
    return choice, kept, knock


@jit
def mc_discard_nb(board, me, search, may_knock, rules, tab, rng, mem):
    """The mc seat's discard from 11 cards: gin or big gin at once, else rollouts over
    the rollout strategy's own choice and the ``CANDIDATES`` discards keeping the least
    deadwood, each with and without a knock where allowed (never a knock, gin included,
    unless ``may_knock``: the knock chart's wait branch); another choice than the
    rollout strategy's must gain ``search.margin`` standard errors. Only the choices in
    ``search.searched`` are tried (without the card, the other knock choice is tried with
    the rollout strategy's card when that card is among the candidates). Applies it;
    returns ``(discard, action)``."""
    hs = board.hs
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    dw, best, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, board.work, True)
    if may_knock and all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return -1, apply_discard_nb(hs, me, -1, 0, True, True, rules)
    if may_knock and dw == 0:
        return best, apply_discard_nb(hs, me, best, 0, True, False, rules)
    default, choice_kept, default_knock = default_discard_nb(board, me, (dw, best), may_knock,
                                                             rules, tab, rng, mem)
    cards = search.searched & SEARCH_CARD != 0
    knocks = search.searched & SEARCH_KNOCK != 0 and may_knock
    if not cards and not (knocks and (default_knock or choice_kept <= hs[ST_KNOCK_LIMIT])):
        # nothing to search: the rollout strategy's choice stands
        return default, apply_discard_nb(hs, me, default, choice_kept, default_knock, False,
                                         rules)
    choice, choice_knock, choice_kept = _best_discard_option_nb(
        board, me, search, (default, default_knock, choice_kept), (cards, knocks), rules, tab,
        rng, mem)
    return choice, apply_discard_nb(hs, me, choice, choice_kept, choice_knock, False, rules)


@jit_inline
def _searched_option_nb(c, knock, low, default, searched, limit):
    """Whether the search tries discarding ``c`` (keeping ``low``) with or without a knock
    beside the rollout strategy's ``default`` choice ``(card, knock, kept)``, searching
    ``searched = (other cards, whether to knock)``."""
    if knock and low > limit:
        return False
    if c == default[0] and knock == default[1]:
        return False  # the rollout strategy's choice itself
    if c != default[0] and not searched[0]:
        return False  # the card is not searched
    return searched[1] or knock == default[1]


@jit
def _best_discard_option_nb(board, me, search, default, searched, rules, tab, rng, mem):
    """The rollouts' choice ``(card, knock, kept)`` among the rollout strategy's
    ``default`` and the ``CANDIDATES`` discards keeping the least deadwood (the default's
    per-card table in the meld scratch), each with and without a knock as ``searched``
    allows (:func:`_searched_option_nb`)."""
    hs = board.hs
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    discard_table = board.work[W_DISCARD:W_DISCARD + 52]
    option_value_nb(hs, me, option_nb(OPT_DISCARD, default[0], default[1], default[2], 0),
                    search, rules, tab, rng, mem)
    choice = default
    best_gain = 0.0
    for _ in range(CANDIDATES):
        c, low = lowest_candidate_nb(discard_table, hand, forbidden)
        if c < 0:
            break
        for knock in (False, True):
            if not _searched_option_nb(c, knock, low, default, searched, hs[ST_KNOCK_LIMIT]):
                continue
            option_value_nb(hs, me, option_nb(OPT_DISCARD, c, knock, low, 1), search, rules,
                            tab, rng, mem)
            gain = gain_nb(mem.values, search.rollouts, search.margin)
            if gain > best_gain:
                best_gain = gain
                choice = (c, knock, low)
    return choice


@jit
def mc_draw_choice_nb(board, me, pile_allowed, params, rules, tab, rng, mem):
    """The mc seat's draw by rollouts, not applied: ``(take, search)``; the belief stays
    in ``mem`` for the discard (:func:`mc_discard_nb`). An mc agent asks this from its
    own view of the hand (``table/agents.py``, ``McAgent``)."""
    hs = board.hs
    search = prepare_nb(hs, me, params, rules, tab, rng, mem)
    take = False
    if pile_allowed and hs[ST_PILE_LEN] > 0:
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        take = pile_decision_nb(mem.pairs[0], me, hs[ST_HAND + me], top, board, rules, tab,
                                rng)[0]
        if search.searched & SEARCH_DRAW == 0:
            return take, search
        for slot in range(2):
            kind = OPT_TAKE if take == (slot == 0) else OPT_STOCK
            option_value_nb(hs, me, option_nb(kind, -1, False, 0, slot), search, rules, tab,
                            rng, mem)
        if gain_nb(mem.values, search.rollouts, search.margin) > 0:
            take = not take
    return take, search


@jit
def mc_draw_nb(board, me, pile_allowed, params, rules, tab, rng, mem):
    """The mc seat's draw by rollouts (:func:`mc_draw_choice_nb`), applied, its event
    recorded. Returns ``(drawn, search)``, the search excluding the card drawn from the
    stock (no guess of the opponent's hand may hold it)."""
    hs = board.hs
    flag = 1 if pile_allowed and hs[ST_PILE_LEN] > 0 else 0
    take, s = mc_draw_choice_nb(board, me, pile_allowed, params, rules, tab, rng, mem)
    hs[ST_PLANNED] = 0
    apply_draw_nb(hs, me, take)
    card = hs[ST_DRAWN]
    if take:
        add_event_nb(mem, me, EV_TAKE, card, 1)
        return card, s
    add_event_nb(mem, me, EV_STOCK, -1, flag)
    return card, Search(s.particles, s.unseen, s.key, s.rollouts, s.margin, np.int64(1) << card,
                        s.searched, s.game)


@jit
def mc_turn_nb(board, me, pile_allowed, params, rules, tab, rng, mem):
    """The mc seat's turn: draw and discard (or knock) by rollouts. Returns ``(drawn,
    discard, action)``."""
    card, search = mc_draw_nb(board, me, pile_allowed, params, rules, tab, rng, mem)
    discard, action = mc_discard_nb(board, me, search, np.bool_(True), rules, tab, rng, mem)
    discard_event_nb(me, discard, mem)
    return card, discard, action


@jit
def plain_draw_nb(board, seat, pile_allowed, rules, tab, rng, mem):
    """A plain seat's draw through the phases (its rows ``mem.rows``), its event kept for
    the mc seat. Returns the card drawn."""
    hs = board.hs
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1] if pile_allowed and hs[ST_PILE_LEN] > 0 else -1
    drawn = draw_nb(board, seat, pile_allowed, mem.rows, rules, tab, rng)
    if hs[ST_SOURCE] == SOURCE_PILE:
        add_event_nb(mem, seat, EV_TAKE, drawn, 1)
    else:
        add_event_nb(mem, seat, EV_STOCK, -1, 1 if top >= 0 else 0)
    return drawn


@jit
def plain_turn_nb(board, seat, pile_allowed, rules, tab, rng, mem):
    """A plain seat's turn through the phases, its events kept for the mc seat."""
    drawn = plain_draw_nb(board, seat, pile_allowed, rules, tab, rng, mem)
    discard, action = discard_nb(board, seat, mem.rows, rules, tab, rng)
    discard_event_nb(seat, discard, mem)
    return drawn, discard, action


@jit
def turn_nb(board, seat, params, rules, tab, rng, trace, mem):
    """One turn of either kind of seat, traced (the pile allowed unless this is the
    non-dealer's forced stock draw after both passed the upcard)."""
    hs = board.hs
    pile_allowed = pile_allowed_nb(hs)
    if is_mc_nb(params, seat):
        drawn, discard, action = mc_turn_nb(board, seat, pile_allowed, params, rules, tab, rng,
                                            mem)
    else:
        drawn, discard, action = plain_turn_nb(board, seat, pile_allowed, rules, tab, rng, mem)
    trace_turn_nb(trace, hs, seat, hs[ST_SOURCE], drawn, discard, action)


@jit
def offer_nb(board, seat, rules, tab, rng, trace, mem):
    """The upcard offered to ``seat``: taken (and a discard) by its strategy, an mc seat
    by its rollout strategy. Deciding the offer by rollouts too measured worse on the same
    2,000 duplicate deals against memory2:knock=0 (-0.73 against -0.20 points a hand),
    the rollouts at the offer seeing no history to sample from. Returns whether it was
    taken."""
    hs = board.hs
    up = hs[ST_UPCARD]
    take, discard, dw, knock, big = pile_decision_nb(mem.rows, seat, hs[ST_HAND + seat], up,
                                                     board, rules, tab, rng)
    apply_offer_nb(hs, seat, take)
    if not take:
        add_event_nb(mem, seat, EV_PASS, up, 1)
        return False
    add_event_nb(mem, seat, EV_TAKE, up, 1)
    action = apply_discard_nb(hs, seat, discard, dw, knock, big, rules)
    if discard >= 0:
        add_event_nb(mem, seat, EV_DISCARD, discard, 0)
    trace_turn_nb(trace, hs, seat, SOURCE_PILE, up, discard, action)
    return True


@jit
def eleven_first_discard_nb(board, params, rules, tab, rng, trace, mem):
    """The eleven-card deal's first discard, the non-dealer's (by rollouts for an mc
    seat)."""
    hs = board.hs
    nondealer = 1 - hs[ST_DEALER]
    hs[ST_FORBIDDEN] = 0
    hs[ST_PLANNED] = 0
    if is_mc_nb(params, nondealer):
        search = prepare_nb(hs, nondealer, params, rules, tab, rng, mem)
        discard, action = mc_discard_nb(board, nondealer, search, np.bool_(True), rules, tab, rng,
                                        mem)
    else:
        discard, action = discard_nb(board, nondealer, mem.rows, rules, tab, rng)
    discard_event_nb(nondealer, discard, mem)
    trace_turn_nb(trace, hs, nondealer, SOURCE_DEAL, -1, discard, action)


@jit
def mc_first_turn_nb(board, params, rules, tab, rng, trace, mem):
    """:func:`first_turn_nb` with mc seats: the upcard offers (non-dealer, then dealer;
    if both pass the non-dealer draws from the stock), or the eleven-card deal's first
    discard. Starts the hand's events; returns the seat to move."""
    hs = board.hs
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)
    start_hand_memory_nb(mem)
    dealer = hs[ST_DEALER]
    nondealer = 1 - dealer
    if rules[R_DEAL] == DEAL_ELEVEN:
        eleven_first_discard_nb(board, params, rules, tab, rng, trace, mem)
        return dealer
    for offer in range(2):
        s = nondealer if offer == 0 else dealer
        if offer_nb(board, s, rules, tab, rng, trace, mem):
            return 1 - s
    turn_nb(board, nondealer, params, rules, tab, rng, trace, mem)
    return dealer


@jit
def mc_play_on_nb(board, seat, params, rules, tab, rng, trace, mem):
    """:func:`play_on_nb` with mc seats: from ``seat`` to move to the end of the hand,
    the 50th-card rule included."""
    hs = board.hs
    while hs[ST_ENDING] < 0:
        turn_nb(board, seat, params, rules, tab, rng, trace, mem)
        seat = 1 - seat
    if hs[ST_PHASE] == PH_LAST_DISCARD:
        last_discard_turn_nb(board, seat, mem.rows, rules, tab, trace)


@jit
def mc_play_hand_nb(buf, dealer, params, rules, tab, hand_id):
    """:func:`play_hand_nb` for a hand with an mc seat, on the hand loop's
    :class:`~ginsim.simulator.machine.buffers.HandBuffers`."""
    board, rng, trace, mem = buf.board, buf.rng, buf.trace, buf.mem
    phase_rows_nb(mem, params)
    deal_nb(board.hs, dealer, rules, hand_id)
    seat = mc_first_turn_nb(board, params, rules, tab, rng, trace, mem)
    mc_play_on_nb(board, seat, params, rules, tab, rng, trace, mem)
