"""The Monte Carlo player: every choice by rollouts over posterior-sampled worlds.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. A seat whose parameter row is of
kind ``KIND_MC`` (:mod:`ginsim.strategies.params`) is an mc player;
:func:`mc_play_hand_nb` plays a hand in which one or both seats are, a step of the machine
at a time as the hand loop does (:func:`mc_drive_nb`). At each of its choices (the draw,
the discard and knock; the upcard offer is its rollout strategy's) the mc seat samples the
opponent's hand from the public history (:mod:`ginsim.simulator.search.mc_guesses_nb`),
lays out ``rollouts`` worlds and plays each option in every world with the rollout
strategies (its own ``rollout`` vector, the opponent as its ``model``;
:mod:`ginsim.simulator.search.rollouts_nb`). It plays what its rollout strategy would
unless another option gains more than ``margin`` standard errors of the paired difference
in the same worlds (the largest such gain): flat Monte Carlo that takes the best of a few
noisy means mostly trades a sound choice for a lucky one (on 2,000 duplicate deals against
memory2:knock=0, +2.79 points a hand with margin 1 against +0.69 with the plain best
mean).

What the seat remembers (the events, the guesses, the rows it plays) is its
:class:`~ginsim.simulator.machine.buffers.McMemory` ``mem``, apart from the hand state; each
choice's settings travel as a :class:`~ginsim.simulator.machine.buffers.Search`.

Literal arguments to these kernels are written ``np.int64(...)`` / ``np.bool_(...)``:
numba compiles a separate copy of a callee for every literal value passed to it, and the
mc kernels are large.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.history import EV_PASS, EV_STOCK, EV_TAKE
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
    PH_OFFER,
    PH_OVER,
    ST_DRAWN,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PLANNED,
    ST_TO_MOVE,
)
from ...strategies.params import SEARCH_CARD, SEARCH_DRAW, SEARCH_KNOCK
from ...strategies.policy_nb import choose_discard_nb, discard_without_knock_nb, pile_decision_nb
from ..machine.board_nb import drop_plan_nb, pile_allowed_nb
from ..machine.buffers import Search
from ..machine.step_nb import apply_step_nb
from ..play.drive_nb import (
    TO_THE_END,
    at_stop_nb,
    decide_nb,
    discard_kind_nb,
    play_step_nb,
    start_hand_nb,
)
from .lessons_nb import (
    keep_value_nb,
    mark_choice_nb,
    note_draw_nb,
    record_discard_options_nb,
    record_draw_nb,
)
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
#: What a hand with an mc seat is played on: the board, the seats' random streams, the
#: trace and the mc seat's memory (a hand of the hand loop, or a branch of a knock chart),
#: and what its choices are written to: None, or the teacher's ``Lessons``
#: (:mod:`ginsim.simulator.search.lessons_nb`).
McPlay = namedtuple("McPlay", ("board", "rng", "trace", "mem", "lessons"))


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
def mc_discard_choice_nb(play, me, search, may_knock, rules, tab):
    """The mc seat's discard from 11 cards on ``play`` (an :class:`McPlay`), not applied,
    its options written to ``play.lessons``: ``(kind, card, kept)``. Gin or
    big gin at once, else rollouts over the rollout strategy's own choice and the
    ``CANDIDATES`` discards keeping the least deadwood, each with and without a knock
    where allowed (never a knock, gin included, unless ``may_knock``: the knock chart's
    wait branch); another choice than the rollout strategy's must gain ``search.margin``
    standard errors. Only the choices in ``search.searched`` are tried (without the
    card, the other knock choice is tried with the rollout strategy's card when that
    card is among the candidates)."""
    board, rng, mem, lessons = play.board, play.rng, play.mem, play.lessons
    hs = board.hs
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    dw, best, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, board.work, True)
    if may_knock and all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return A_BIG_GIN, np.int64(-1), np.int64(0)
    if may_knock and dw == 0:
        return A_KNOCK, best, np.int64(0)
    first = record_discard_options_nb(lessons, me, board, tab)
    default, choice_kept, default_knock = default_discard_nb(board, me, (dw, best), may_knock,
                                                             rules, tab, rng, mem)
    cards = search.searched & SEARCH_CARD != 0
    knocks = search.searched & SEARCH_KNOCK != 0 and may_knock
    choice = (default, default_knock, choice_kept)
    if cards or (knocks and (default_knock or choice_kept <= hs[ST_KNOCK_LIMIT])):
        choice = _best_discard_option_nb(play, me, search, choice, (cards, knocks), rules, tab,
                                         first)
    # else nothing to search: the rollout strategy's choice stands
    mark_choice_nb(lessons, first, default, choice)
    return discard_kind_nb(choice[1], False), choice[0], choice[2]


@jit
def mc_discard_nb(play, me, search, may_knock, rules, tab):
    """:func:`mc_discard_choice_nb` applied through the machine: ``(discard, status)``."""
    kind, card, kept = mc_discard_choice_nb(play, me, search, may_knock, rules, tab)
    return card, apply_step_nb(play.board.hs, me, kind, card, kept, rules)


@jit_inline
def searched_option_nb(c, knock, low, default, searched, limit):
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


@jit_inline
def _best_discard_option_nb(play, me, search, default, searched, rules, tab, first):
    """The rollouts' choice ``(card, knock, kept)`` among the rollout strategy's
    ``default`` and the ``CANDIDATES`` discards keeping the least deadwood (the default's
    per-card table in the meld scratch), each with and without a knock as ``searched``
    allows (:func:`searched_option_nb`), each mean kept in the decision's rows from
    ``first`` of ``play.lessons``."""
    board, rng, mem, lessons = play.board, play.rng, play.mem, play.lessons
    hs = board.hs
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    discard_table = board.work[W_DISCARD:W_DISCARD + 52]
    mean = option_value_nb(hs, me, option_nb(OPT_DISCARD, default[0], default[1], default[2], 0),
                           search, rules, tab, rng, mem)
    keep_value_nb(lessons, first, default[0], default[1], mean)
    choice = default
    best_gain = 0.0
    for _ in range(CANDIDATES):
        c, low = lowest_candidate_nb(discard_table, hand, forbidden)
        if c < 0:
            break
        for knock in (False, True):
            if not searched_option_nb(c, knock, low, default, searched, hs[ST_KNOCK_LIMIT]):
                continue
            mean = option_value_nb(hs, me, option_nb(OPT_DISCARD, c, knock, low, 1), search,
                                   rules, tab, rng, mem)
            keep_value_nb(lessons, first, c, knock, mean)
            gain = gain_nb(mem.values, search.rollouts, search.margin)
            if gain > best_gain:
                best_gain = gain
                choice = (c, knock, low)
    return choice


@jit
def mc_draw_choice_nb(play, me, pile_allowed, params, rules, tab):
    """The mc seat's draw by rollouts on ``play`` (an :class:`McPlay`), not applied,
    written to ``play.lessons``: ``(take, search)``; the belief stays in ``play.mem``
    for the discard (:func:`mc_discard_nb`). An mc agent asks this from its own view of
    the hand (``table/agents.py``, ``McAgent``)."""
    board, rng, mem, lessons = play.board, play.rng, play.mem, play.lessons
    hs = board.hs
    search = prepare_nb(hs, me, params, rules, tab, rng, mem)
    take = False
    if pile_allowed and hs[ST_PILE_LEN] > 0:
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        row = record_draw_nb(lessons, me, top, board, tab)
        default = pile_decision_nb(mem.pairs[0], me, hs[ST_HAND + me], top, board, rules, tab,
                                   rng)[0]
        take = default
        if search.searched & SEARCH_DRAW == 0:
            note_draw_nb(lessons, row, take, default, np.nan, np.nan)
            return take, search
        first = option_value_nb(hs, me, option_nb(OPT_TAKE if default else OPT_STOCK, -1, False,
                                                  0, 0), search, rules, tab, rng, mem)
        other = option_value_nb(hs, me, option_nb(OPT_STOCK if default else OPT_TAKE, -1, False,
                                                  0, 1), search, rules, tab, rng, mem)
        if gain_nb(mem.values, search.rollouts, search.margin) > 0:
            take = not default
        if default:
            note_draw_nb(lessons, row, take, default, first, other)
        else:
            note_draw_nb(lessons, row, take, default, other, first)
    return take, search


@jit_inline
def mc_draw_nb(play, me, pile_allowed, params, rules, tab):
    """The mc seat's draw by rollouts (:func:`mc_draw_choice_nb`), applied, its event
    recorded. Returns ``(drawn, search)``, the search excluding the card drawn from the
    stock (no guess of the opponent's hand may hold it)."""
    hs, mem = play.board.hs, play.mem
    flag = 1 if pile_allowed and hs[ST_PILE_LEN] > 0 else 0
    take, s = mc_draw_choice_nb(play, me, pile_allowed, params, rules, tab)
    drop_plan_nb(hs)
    apply_step_nb(hs, me, A_PILE if take else A_STOCK, -1, 0, rules)
    card = hs[ST_DRAWN]
    if take:
        add_event_nb(mem, me, EV_TAKE, card, 1)
        return card, s
    add_event_nb(mem, me, EV_STOCK, -1, flag)
    return card, Search(s.particles, s.unseen, s.key, s.rollouts, s.margin, np.int64(1) << card,
                        s.searched, s.game)


@jit
def observe_nb(mem, seat, kind, card, flag):
    """What the mc memory keeps of an action applied in the offer, draw or discard phase:
    its public event (``card`` the card taken, passed or discarded; ``flag`` for a stock
    draw, whether the pile's top card was declined)."""
    if kind == A_TAKE or kind == A_PILE:
        add_event_nb(mem, seat, EV_TAKE, card, 1)
    elif kind == A_PASS:
        add_event_nb(mem, seat, EV_PASS, card, 1)
    elif kind == A_STOCK:
        add_event_nb(mem, seat, EV_STOCK, -1, flag)
    elif kind == A_DISCARD or kind == A_KNOCK:
        discard_event_nb(seat, card, mem)


@jit
def no_search_nb():
    """A :class:`Search` before the mc seat's first choice (numba types it once)."""
    zero = np.int64(0)
    return Search(zero, zero, np.uint64(0), zero, 0.0, zero, zero, zero)


@jit
def plain_step_nb(play, seat, rows, rules, tab):
    """One action of a seat played by its plain rows (a plain seat, or an mc seat's
    offers, pile-take discards and 50th-card turn), applied, traced and remembered."""
    board, rng, trace, mem = play.board, play.rng, play.trace, play.mem
    hs = board.hs
    phase = hs[ST_PHASE]
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1] if hs[ST_PILE_LEN] > 0 else -1
    declines = 1 if phase == PH_DRAW and pile_allowed_nb(hs) else 0
    kind, card, kept = decide_nb(rows, seat, board, rules, tab, rng)
    status = play_step_nb(board, kind, card, kept, rules, trace)
    if phase == PH_OFFER or phase == PH_DRAW:
        observe_nb(mem, seat, kind, hs[ST_DRAWN] if kind == A_PILE or kind == A_TAKE else top,
                   declines)
    elif phase == PH_DISCARD:
        observe_nb(mem, seat, kind, card, 0)
    return kind, status


@jit
def mc_step_nb(play, me, search, params, rules, tab):
    """One action of an mc seat ``me`` by rollouts (its draw, its discard), applied,
    traced and remembered. Returns ``(kind, status, search)``: the draw's search stays
    for the discard."""
    board, rng, trace, mem = play.board, play.rng, play.trace, play.mem
    hs = board.hs
    if hs[ST_PHASE] == PH_DRAW:
        _, search = mc_draw_nb(play, me, pile_allowed_nb(hs), params, rules, tab)
        return A_STOCK, np.int64(0), search
    if hs[ST_DRAWN] < 0:  # the eleven-card deal's first discard: no draw searched yet
        search = prepare_nb(hs, me, params, rules, tab, rng, mem)
    kind, card, kept = mc_discard_choice_nb(play, me, search, np.bool_(True), rules, tab)
    status = play_step_nb(board, kind, card, kept, rules, trace)
    observe_nb(mem, me, kind, card, 0)
    return kind, status, search


@jit
def mc_searches_nb(hs, params, seat):
    """Whether the mc seat's search makes the choice in front of ``seat`` (its draws and
    its own discards; its offers, pile-take discards and 50th-card turn are its rollout
    strategy's)."""
    if not is_mc_nb(params, seat):
        return False
    phase = hs[ST_PHASE]
    return phase == PH_DRAW or (phase == PH_DISCARD and hs[ST_PLANNED] == 0)


@jit_inline
def mc_drive_nb(play, stop_phase, stop_seat, search, params, rules, tab):
    """:func:`~ginsim.simulator.play.drive_nb.drive_nb` with mc seats: play the hand on
    ``play`` (an :class:`McPlay`) step by step until it ends or the phase ``stop_phase``
    is in front of ``stop_seat``, every action remembered in ``play.mem``. Returns the mc
    seat's search."""
    hs = play.board.hs
    # the plain steps write no lessons (and compile once, whatever ``play.lessons`` is)
    plain = McPlay(play.board, play.rng, play.trace, play.mem, None)
    while hs[ST_PHASE] < PH_OVER and not at_stop_nb(hs, stop_phase, stop_seat):
        seat = hs[ST_TO_MOVE]
        if mc_searches_nb(hs, params, seat):
            _, _, search = mc_step_nb(play, seat, search, params, rules, tab)
        else:
            plain_step_nb(plain, seat, play.mem.rows, rules, tab)
    return search


@jit
def mc_start_hand_nb(board, dealer, params, rules, trace, mem, hand_id):
    """Deal the deck in ``board.hs`` for a hand with an mc seat: its rows for the
    hand's phase, the deal traced, its events started."""
    phase_rows_nb(mem, params)
    start_hand_nb(board, dealer, rules, trace, hand_id)
    start_hand_memory_nb(mem)


@jit_inline
def mc_play_hand_nb(buf, dealer, params, rules, tab, hand_id):
    """The hand loop's hand with an mc seat, on its
    :class:`~ginsim.simulator.machine.buffers.HandBuffers`, its choices written to
    ``buf.lessons`` (None, or the teacher's ``Lessons``)."""
    mc_start_hand_nb(buf.board, dealer, params, rules, buf.trace, buf.mem, hand_id)
    play = McPlay(buf.board, buf.rng, buf.trace, buf.mem, buf.lessons)
    mc_drive_nb(play, np.int64(TO_THE_END), np.int64(-1), no_search_nb(), params, rules, tab)
