"""What an mc seat remembers of a hand: the public events, the rows it plays and the
mixture of opponent models it believes in, kept in a
:class:`~ginsim.simulator.machine.buffers.McMemory` (``mem``) beside the hand state.

Events are ``(seat, kind, card, flag)`` rows of :mod:`ginsim.game.history` with
absolute seats (``mem.events[:mem.n_events[0]]``), turned relative to the deciding seat
(0 = itself) when it samples (:mod:`ginsim.simulator.search.mc_guesses_nb`).
"""

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.history import EV_DISCARD, EV_TAKE
from ...strategies.params import (
    KIND_MC,
    MC_MODELS,
    P_BASE,
    P_KIND,
    P_MC_LEARN,
    P_MC_MODEL,
    P_MC_PRIOR,
    P_MC_RESPONSE,
    P_MC_ROLLOUT,
)

#: A model's learned log weight (its posterior over its prior before the game) is kept
#: within this of the best model's, so that a few hands unlike the best can bring it back
#: (e^-5: under 1% of the weight).
LEARN_FLOOR = 5.0


@jit_inline
def is_mc_nb(params, seat):
    return params[seat, P_KIND] == KIND_MC


@jit
def copy_row_nb(dst, row, params, seat, start):
    for i in range(P_BASE):
        dst[row, i] = params[seat, start + i]


@jit
def is_set_nb(params, seat, start):
    """Whether the ``P_BASE`` block at ``start`` of ``seat``'s row holds a strategy (a
    block left at its default is all zeros)."""
    for i in range(P_BASE):
        if params[seat, start + i] != 0.0:
            return True
    return False


@jit
def add_event_nb(mem, seat, kind, card, flag):
    """Record the event ``(seat, kind, card, flag)``."""
    n = mem.n_events[0]
    mem.events[n, 0] = seat
    mem.events[n, 1] = kind
    mem.events[n, 2] = card
    mem.events[n, 3] = flag
    mem.n_events[0] = n + 1


@jit
def from_pile_nb(events, n, seat, card):
    """1 if ``seat`` took ``card`` from the pile earlier (and so still held it)."""
    for i in range(n - 1, -1, -1):
        if events[i, 0] == seat and events[i, 2] == card:
            return 1 if events[i, 1] == EV_TAKE else 0
    return 0


@jit
def discard_event_nb(seat, discard, mem):
    """Record ``seat``'s discard (none after big gin)."""
    if discard >= 0:
        flag = from_pile_nb(mem.events, mem.n_events[0], seat, discard)
        add_event_nb(mem, seat, EV_DISCARD, discard, flag)


@jit
def phase_rows_nb(mem, params):
    """The phases' rows: an mc seat plays its rollout strategy where the phases decide
    for it (the 50th-card rule, the upcard offer)."""
    for s in range(2):
        copy_row_nb(mem.rows, s, params, s, P_MC_ROLLOUT if is_mc_nb(params, s) else 0)


@jit
def set_models_nb(mem, me, params):
    """The mixture of mc seat ``me``: for each model with a prior weight above 0 (the
    first model alone if none has), the belief's and the rollouts' row pairs (its
    rollout strategy, in the rollouts its response to that model where set, and that
    model of the opponent) and the normalised log prior, which
    in a game (``learn``) adds what the game's earlier hands showed of each model."""
    n_models = 0
    total = 0.0
    for k in range(MC_MODELS):
        weight = params[me, P_MC_PRIOR + k]
        if weight <= 0.0 and not (k == MC_MODELS - 1 and n_models == 0):
            continue
        if weight <= 0.0:  # no model has weight: the first alone
            k = 0
            weight = 1.0
        start = P_MC_MODEL + k * P_BASE
        copy_row_nb(mem.model_rows[n_models], 0, params, me, P_MC_ROLLOUT)
        copy_row_nb(mem.model_rows[n_models], 1, params, me, start)
        response = P_MC_RESPONSE + k * P_BASE
        own = response if is_set_nb(params, me, response) else P_MC_ROLLOUT
        copy_row_nb(mem.pairs[n_models], me, params, me, own)
        copy_row_nb(mem.pairs[n_models], 1 - me, params, me, start)
        mem.log_prior[n_models] = weight
        mem.slots[n_models] = k
        total += weight
        n_models += 1
    for k in range(n_models):
        mem.base_prior[k] = np.log(mem.log_prior[k] / total)
        mem.log_prior[k] = mem.base_prior[k]
    mem.n_models[0] = n_models
    if mem.session[0] == 1 and params[me, P_MC_LEARN] != 0:  # in a game: what it learned
        norm = 0.0
        for k in range(n_models):
            mem.log_prior[k] += mem.learned[me, mem.slots[k]]
            norm += np.exp(mem.log_prior[k])
        for k in range(n_models):
            mem.log_prior[k] -= np.log(norm)


@jit
def note_evidence_nb(mem, me, n):
    """After a belief of mc seat ``me`` over ``n`` guesses: what the game so far shows
    of each model mixed, the log of its posterior weight (a guess's posterior over the
    models, ``mem.resp``, weighed by the guesses' weights) over its prior weight before
    the game, the best model at 0 and none below ``-LEARN_FLOOR``."""
    top = -np.inf
    for k in range(mem.n_models[0]):
        post = 0.0
        for p in range(n):
            below = mem.resp[p, k - 1] if k > 0 else 0.0
            post += mem.weights[p] * (mem.resp[p, k] - below)
        slot = mem.slots[k]
        mem.pending[me, slot] = np.log(max(post, 1e-300)) - mem.base_prior[k]
        top = max(top, mem.pending[me, slot])
    for k in range(mem.n_models[0]):
        slot = mem.slots[k]
        mem.pending[me, slot] = max(mem.pending[me, slot] - top, -LEARN_FLOOR)
    mem.session[1 + me] = 1


@jit
def new_game_memory_nb(mem):
    """A game starts: nothing learned of the opponents yet, and hands now follow each
    other (:func:`start_hand_memory_nb` carries each into the next)."""
    for s in range(2):
        for k in range(mem.learned.shape[1]):
            mem.learned[s, k] = 0.0
            mem.pending[s, k] = 0.0
        mem.session[1 + s] = 0
    mem.session[0] = 1


@jit
def start_hand_memory_nb(mem):
    """A hand starts: no events yet, nothing carried; in a game each seat learns what
    its last belief of the hand before showed (:func:`note_evidence_nb`); outside a
    game nothing is learned."""
    mem.n_events[0] = 0
    mem.carried[0] = 0
    for s in range(2):
        for k in range(mem.learned.shape[1]):
            if mem.session[0] != 1:
                mem.learned[s, k] = 0.0
            elif mem.session[1 + s] == 1:
                mem.learned[s, k] = mem.pending[s, k]
        mem.session[1 + s] = 0


@jit
def copy_array_nb(src, dst):
    """Copy a contiguous array into another of its shape, element by element (slice
    assignment may copy through a temporary, which a kernel cannot allocate)."""
    a = src.reshape(src.size)
    b = dst.reshape(dst.size)
    for i in range(a.shape[0]):
        b[i] = a[i]


@jit
def copy_memory_nb(src, dst):
    """What the next choices read of ``src`` (the events, the guesses and their weights,
    the rows and the mixture) into ``dst``: a branch of the hand remembers it too."""
    copy_array_nb(src.events, dst.events)
    copy_array_nb(src.n_events, dst.n_events)
    copy_array_nb(src.rel, dst.rel)
    copy_array_nb(src.ev_card, dst.ev_card)
    copy_array_nb(src.unseen_cards, dst.unseen_cards)
    copy_array_nb(src.order, dst.order)
    copy_array_nb(src.hands, dst.hands)
    copy_array_nb(src.tmp_hands, dst.tmp_hands)
    copy_array_nb(src.logl, dst.logl)
    copy_array_nb(src.base, dst.base)
    copy_array_nb(src.weights, dst.weights)
    copy_array_nb(src.tmp_logl, dst.tmp_logl)
    copy_array_nb(src.rows, dst.rows)
    copy_array_nb(src.model_rows, dst.model_rows)
    copy_array_nb(src.pairs, dst.pairs)
    copy_array_nb(src.log_prior, dst.log_prior)
    copy_array_nb(src.lk, dst.lk)
    copy_array_nb(src.n_models, dst.n_models)
    copy_array_nb(src.resp, dst.resp)
    copy_array_nb(src.slots, dst.slots)
    copy_array_nb(src.base_prior, dst.base_prior)
    copy_array_nb(src.learned, dst.learned)
    copy_array_nb(src.session, dst.session)
    copy_array_nb(src.scores, dst.scores)
    if dst.win_table.shape[0] != src.win_table.shape[0]:
        dst.scores[0] = 0  # the branch has no table for this game: it values points
    else:
        copy_array_nb(src.win_table, dst.win_table)
    dst.carried[0] = 0  # the draw orders are not copied: the branch samples afresh
