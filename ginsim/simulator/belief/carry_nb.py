"""The belief carried forward: the last choice's particles moved on to the next choice.

Contract and data as in :mod:`ginsim.simulator.belief.sample_nb`. Between two choices of a seat
the opponent draws and discards once; instead of sampling the whole history again
(:func:`~ginsim.simulator.belief.sample_nb.smc_beliefs_nb`), each particle of the last posterior
is extended over the new events, reweighted by what the new events add to its likelihood
(over the chance of the extension it drew), resampled, and moved by the same Metropolis
moves at full likelihood: a resample-move step of sequential Monte Carlo.

Extending a guess: a pile take joins its hand; a discard it holds leaves it, and a stock
draw before that discard is a uniform unseen card it does not hold; a discard it does
not hold is the stock card just drawn (drawn and thrown), or, after a pile take, one of
its unseen cards turned into that card (the card keeps the other's place in the draw
order); a card the decider has seen since (its own stock draws) is exchanged for a
uniform unseen one the same way. Every uniform choice among ``n`` adds ``log n`` to the
particle's weight (prior over proposal, the prior being uniform over hands and orders).
"""

import numpy as np

from ...game._jit import jit
from ...game.bits_nb import nth_card_nb, popcount_nb
from ...game.history import EV_DISCARD, EV_STOCK, EV_TAKE
from ...game.rng_nb import below_nb
from .metropolis_nb import keep_terms_nb
from .replay_nb import state_log_weight_nb
from .sample_nb import ess_nb, resample_move_nb, seed_streams_nb, unseen_mask_nb

#: Below this effective sample size after reweighting, the carried particles say too
#: little about the new history and the belief is sampled afresh.
CARRY_MIN_ESS = 0.02


@jit
def exchange_nb(hand, row, a, pool, rng):
    """Guess ``hand`` gives up card ``a`` for a uniform card of ``pool``, which takes
    ``a``'s place in the draw order ``row``; returns ``(hand, log len(pool))``."""
    n = popcount_nb(pool)
    b = nth_card_nb(pool, below_nb(rng, 2, n))
    row[b] = row[a]
    row[a] = -1
    return (hand & ~(np.int64(1) << a)) | (np.int64(1) << b), np.log(n)


@jit
def extend_guess_nb(events, start, hand, row, unseen, held, rng):
    """Extend the guess ``(hand, row)`` over ``events[start:]`` (see the module);
    returns ``(hand, log of prior over proposal)``, or ``log`` -inf when it cannot be
    extended."""
    pending = -1  # the opponent's stock draw not yet placed
    log_q = 0.0
    for i in range(start, events.shape[0]):
        if events[i, 0] != 1:
            continue
        kind = events[i, 1]
        bit = np.int64(1) << events[i, 2]
        if kind == EV_TAKE:
            hand |= bit
        elif kind == EV_STOCK:
            pending = i
        elif kind == EV_DISCARD and hand & bit != 0:
            hand &= ~bit
            if pending >= 0:
                pool = unseen & ~hand & ~bit
                if pool == 0:
                    return hand, -np.inf
                x = nth_card_nb(pool, below_nb(rng, 2, popcount_nb(pool)))
                row[x] = pending
                hand |= np.int64(1) << x
                log_q += np.log(popcount_nb(pool))
                pending = -1
        elif kind == EV_DISCARD and pending >= 0:
            row[events[i, 2]] = pending
            pending = -1
        elif kind == EV_DISCARD:  # after a pile take: one of its unseen cards was this
            pool = hand & unseen
            if pool == 0:
                return hand, -np.inf
            r = nth_card_nb(pool, below_nb(rng, 2, popcount_nb(pool)))
            row[events[i, 2]] = row[r]
            row[r] = -1
            hand &= ~(np.int64(1) << r)
            log_q += np.log(popcount_nb(pool))
    return refresh_guess_nb(hand, row, unseen, held, rng, log_q)


@jit
def refresh_guess_nb(hand, row, unseen, held, rng, log_q):
    """Exchange every card of ``hand`` the decider has now seen (neither unseen nor
    held from the pile) for a uniform unseen card; returns ``(hand, log_q)`` plus each
    exchange's log count."""
    stale = hand & ~unseen & ~held
    while stale != 0:
        a = nth_card_nb(stale, 0)
        stale &= stale - 1
        pool = unseen & ~hand
        if pool == 0:
            return hand, -np.inf
        hand, lq = exchange_nb(hand, row, a, pool, rng)
        log_q += lq
    return hand, log_q


@jit
def carry_beliefs_nb(seed, history, hidden, like, moves, start, parts, work):
    """Move the particles of the last choice (their events were ``history.events[:start]``,
    their weights ``parts.weights``) on to ``history`` by one resample-move step; returns
    the ESS of the reweighted particles, 0 when they cannot carry the new history (then
    sample afresh: the particles are left spent)."""
    n = parts.hands.shape[0]
    logl, base, w = parts.logl, parts.base, parts.weights
    seed_streams_nb(work.rng, seed, 0)
    unseen = unseen_mask_nb(hidden)
    size = hidden.n_hidden + popcount_nb(hidden.held)
    for p in range(n):
        row = parts.source[p]
        hand, log_q = extend_guess_nb(history.events, start, parts.hands[p], row, unseen,
                                      hidden.held, work.rng)
        if log_q == -np.inf or popcount_nb(hand) != size or w[p] <= 0.0:
            base[p] = -np.inf
            logl[p] = 0.0
            continue
        value = state_log_weight_nb(history, hand, row, like, -np.inf, work)
        keep_terms_nb(parts.source, p, like.lk)
        parts.hands[p] = hand
        base[p] = np.log(w[p]) + log_q - logl[p]
        logl[p] = value if value > -np.inf else 0.0
        if value == -np.inf:
            base[p] = -np.inf
    ess = ess_nb(logl, base, 1.0, w)
    if not ess >= CARRY_MIN_ESS * n:
        return 0.0
    resample_move_nb(history, unseen, hidden.held, 1.0, moves, parts, like, work)
    ess_nb(logl, base, 0.0, w)
    return ess
