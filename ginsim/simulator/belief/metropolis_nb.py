"""The belief's Metropolis moves: a hand swap and an order exchange per particle, both
symmetric under the uniform prior and so accepted by the tempered likelihood ratio
alone (see :mod:`ginsim.simulator.belief.sample_nb`).

Contract as in :mod:`ginsim.simulator.play.drive_nb`; the data are the named tuples of
:mod:`ginsim.simulator.belief.belief_types`.
"""

import numpy as np

from ...game._jit import jit
from ...game.bits_nb import nth_card_nb, popcount_nb
from ...game.history import EV_DISCARD, EV_STOCK, EV_TAKE
from ...game.rng_nb import below_nb, unit_nb
from .replay_nb import dealt_hand_nb, draws_from_source_nb, state_log_weight_nb


@jit
def keep_terms_nb(source, p, lk):
    """Particle ``p`` keeps the per-model log likelihoods ``lk`` (float64 bits in
    ``source[p, 52:]``)."""
    row = source[p].view(np.float64)
    for k in range(lk.shape[0]):
        row[52 + k] = lk[k]


@jit
def move_floor_nb(logl, beta, rng):
    """A Metropolis move from a particle of log likelihood ``logl`` at tempering ``beta``
    is accepted when the proposal's log likelihood is above this (uniform ``u``:
    ``beta * (new - logl) > log u``)."""
    return logl + np.log(1.0 - unit_nb(rng, 2)) / beta


@jit
def swap_move_nb(history, unseen, held, beta, parts, p, like, work):
    """Swap a hidden card of particle ``p`` for an unseen one, which takes its place in
    the draw order (dealt, or drawn at the same stock event): a symmetric proposal
    under a prior uniform over hands and orders, accepted by the tempered likelihood."""
    hands, logl, rng = parts.hands, parts.logl, work.rng
    mine = hands[p] & ~held
    out = unseen & ~hands[p]
    n_mine = popcount_nb(mine)
    n_out = popcount_nb(out)
    if n_mine == 0 or n_out == 0:
        return
    a = nth_card_nb(mine, below_nb(rng, 2, n_mine))
    b = nth_card_nb(out, below_nb(rng, 2, n_out))
    row = parts.source[p]
    row[b] = row[a]
    row[a] = -1
    proposal = (hands[p] & ~(1 << a)) | (1 << b)
    floor = move_floor_nb(logl[p], beta, rng)
    value = state_log_weight_nb(history, proposal, row, like, floor, work)
    if value > floor:
        hands[p] = proposal
        logl[p] = value
        keep_terms_nb(parts.source, p, like.lk)
    else:
        row[a] = row[b]
        row[b] = -1


@jit
def stock_event_nb(events, k):
    """The event index of the opponent's ``k``-th stock draw."""
    for i in range(events.shape[0]):
        if events[i, 0] == 1 and events[i, 1] == EV_STOCK:
            if k == 0:
                return i
            k -= 1
    return -1


@jit
def stock_draws_nb(events):
    """The opponent's stock draws in ``events``."""
    draws = 0
    for i in range(events.shape[0]):
        if events[i, 0] == 1 and events[i, 1] == EV_STOCK:
            draws += 1
    return draws


@jit
def held_before_nb(events, at, dealt, ev_card):
    """The cards the opponent (dealt ``dealt``, stock draws ``ev_card``) held just before
    event ``at`` that did not come from the pile."""
    hand = dealt
    from_pile = np.int64(0)
    for i in range(at):
        if events[i, 0] != 1:
            continue
        kind = events[i, 1]
        card = events[i, 2]
        if kind == EV_TAKE:
            hand |= 1 << card
            from_pile |= 1 << card
        elif kind == EV_STOCK:
            hand |= 1 << ev_card[i]
        elif kind == EV_DISCARD:
            hand &= ~(1 << card)
            from_pile &= ~(1 << card)
    return hand & ~from_pile


@jit
def order_move_nb(history, beta, parts, p, like, work):
    """At a random stock draw of the opponent, exchange the card drawn with one it held
    just before (not from the pile): that card is drawn there instead, and the other
    takes its earlier place (dealt or drawn). The same hand now, another order; the
    proposal is its own inverse with the same number of choices, so symmetric."""
    events, rng, ev_card = history.events, work.rng, work.ev_card
    draws = stock_draws_nb(events)
    if draws == 0:
        return
    at = stock_event_nb(events, below_nb(rng, 2, draws))
    row = parts.source[p]
    draws_from_source_nb(row, ev_card)
    pool = held_before_nb(events, at, dealt_hand_nb(events, parts.hands[p], ev_card), ev_card)
    if pool == 0:
        return
    x = ev_card[at]
    y = nth_card_nb(pool, below_nb(rng, 2, popcount_nb(pool)))
    row[x] = row[y]
    row[y] = at
    floor = move_floor_nb(parts.logl[p], beta, rng)
    value = state_log_weight_nb(history, parts.hands[p], row, like, floor, work)
    if value > floor:
        parts.logl[p] = value
        keep_terms_nb(parts.source, p, like.lk)
    else:
        row[y] = row[x]
        row[x] = at
