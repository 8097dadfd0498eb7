"""Posterior sampling of the opponent's hidden cards from the public history.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. A *particle* is one guess of the
opponent's hidden cards: the unseen cards it holds now and the order in which its stock
draws brought them (which card each draw was; the rest were dealt). Under the deal every
such pair consistent with the public record is equally likely. The history is replayed
forwards through the phases, and the opponent model (``params[1]``) scores each of the
opponent's observed choices; the particle's log likelihood is the sum.

Particles start from the prior: hands drawn uniformly, orders from a proposal walking
backwards through the history (each stock draw is the card discarded right after with
chance ``KEEP_DRAWN``, else a uniformly chosen held card not from the pile), weighted by
prior over proposal. Tempering brings the likelihood in by stages; after each, every
particle makes Metropolis moves that keep the tempered posterior: a hand swap (a hidden
card for an unseen one, which takes its place in the order) and an order exchange (at
one stock draw, the card drawn and a card held just before trade places). Both are
symmetric under the uniform prior, so they are accepted by the likelihood ratio alone.

The softened model (temperature ``T`` in deadwood points): a discard ``d`` costs the
model's own score of ``d`` above the lowest score of a legal discard (the kept deadwood,
or for a model with memory the score it discards by, which also weighs live outs and
feeding risk) and has probability ``exp(-cost/T)`` over the sum for all legal discards;
a take or pass of the pile card that disagrees with the model costs ``DEVIATION``
points (probability ``exp(-DEVIATION/T)`` against 1 for agreeing, a factor the same for
every particle otherwise). Playing on where the model would knock has probability
``wait`` (``log_wait`` in the kernels): opponents differ most in when they knock, and a
belief sure of the model's knock rule would read every opponent who waits for gin as
holding a poor hand.

A belief may mix several opponent models (``models[k]``, row 1 of each, with log prior
weights ``log_prior[k]``): a particle's likelihood is then ``sum_k prior_k L_k``, every
model scored on the same replay, and each particle keeps its ``L_k`` (``lk`` rows), so
the posterior weight of model ``k`` given the particle is ``prior_k L_k / sum``. The
weights follow the opponent's choices: a model whose discards and pile choices the
opponent keeps making gains weight. With one model (log prior 0) the likelihood is that
model's, as before. A model of the expert or the learned kind scores a discard by
agreement with its own choice (the deviation cost for any other card), as pile choices
are scored.

Events are rows ``(seat, kind, card, flag)`` of :mod:`ginsim.game.history`, seat 0
being the advised player. The kernels take their data as the named tuples of
:mod:`ginsim.simulator.belief.belief_types` (a ``PublicHistory``, the opponent's
``Hidden`` cards, the
``Likelihood`` that scores its choices, the ``Particles`` and the ``Replay`` work
arrays). This module draws the particles and runs the tempering; the likelihood is
:mod:`ginsim.simulator.belief.replay_nb`, the moves :mod:`ginsim.simulator.belief.metropolis_nb`.
"""


import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import nth_card_nb, popcount_nb
from ...game.history import EV_DISCARD, EV_STOCK, EV_TAKE
from ...game.rng_nb import BELIEF_DECK_STREAM, SEAT_STREAMS, below_nb, stream_key_nb, unit_nb
from .metropolis_nb import keep_terms_nb, order_move_nb, swap_move_nb
from .replay_nb import (  # noqa: F401 (the belief's constants, read from here too)
    DEVIATION,
    TEMPERATURE,
    WAIT,
    replay_log_weight_nb,
)

KEEP_DRAWN = 0.5  # proposal: chance that a stock draw is the card discarded right after


@jit
def hidden_hand_nb(unseen, n_unseen, n_hidden, held, rng):
    """The opponent's hand now: its known pickups plus ``n_hidden`` cards drawn
    uniformly from ``unseen[:n_unseen]`` (partially shuffled in place)."""
    hand = held
    for i in range(n_hidden):
        j = i + below_nb(rng, 2, n_unseen - i)
        t = unseen[i]
        unseen[i] = unseen[j]
        unseen[j] = t
        hand |= 1 << unseen[i]
    return hand


@jit
def stock_cards_nb(events, hand_now, held, ev_card, rng):
    """Walk the history backwards from ``hand_now``: each opponent stock draw gets a
    held card that did not come from the pile (``ev_card[event]``): with probability
    ``KEEP_DRAWN`` the card it discarded right after (when that card qualifies), else
    a uniform one. Returns the opponent's dealt hand and the log of prior over proposal
    probability of the order drawn (the prior is uniform over the orders that let the
    opponent discard what it discarded)."""
    hand = hand_now
    from_pile = held
    logc = 0.0
    after = -1  # the card the opponent discarded right after the draw being undone
    for i in range(events.shape[0] - 1, -1, -1):
        if events[i, 0] != 1:
            continue
        kind = events[i, 1]
        card = events[i, 2]
        if kind == EV_DISCARD:
            hand |= 1 << card
            if events[i, 3] != 0:
                from_pile |= 1 << card
            after = card if events[i, 3] == 0 else -1
        elif kind == EV_TAKE:
            hand &= ~(1 << card)
            from_pile &= ~(1 << card)
            after = -1
        elif kind == EV_STOCK:
            pool = hand & ~from_pile
            n = popcount_nb(pool)
            eligible = after >= 0 and (pool >> after) & 1 != 0
            if eligible and unit_nb(rng, 2) < KEEP_DRAWN:
                c = after
            else:
                c = nth_card_nb(pool, below_nb(rng, 2, n))
            if eligible:
                chance = (1.0 - KEEP_DRAWN) / n + (KEEP_DRAWN if c == after else 0.0)
                logc += -np.log(n) - np.log(chance)
            ev_card[i] = c
            hand &= ~(1 << c)
            after = -1
    return hand, logc


@jit
def ess_nb(logl, base, step, w):
    """Normalised weights ``exp(base + step * logl)`` into ``w``; returns their ESS."""
    top = -1e300
    for p in range(logl.shape[0]):
        top = max(top, base[p] + step * logl[p])
    total = 0.0
    for p in range(logl.shape[0]):
        w[p] = np.exp(base[p] + step * logl[p] - top)
        total += w[p]
    sq = 0.0
    for p in range(logl.shape[0]):
        w[p] /= total
        sq += w[p] * w[p]
    return 1.0 / sq


@jit
def next_step_nb(logl, base, beta, target, w):
    """The largest tempering step (at most 1 - beta) whose weights keep an ESS of at
    least ``target`` (bisection); leaves those weights in ``w``."""
    if ess_nb(logl, base, 1.0 - beta, w) >= target:
        return 1.0 - beta
    lo = 0.0
    hi = 1.0 - beta
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if ess_nb(logl, base, mid, w) >= target:
            lo = mid
        else:
            hi = mid
    step = max(lo, 1e-6)
    ess_nb(logl, base, step, w)
    return step


@jit
def resample_nb(hands, logl, source, w, tmp_hands, tmp_logl, tmp_source, rng):
    """Systematic resampling of the particles (hands, likelihoods, draw orders and, in
    ``source[:, 52:]``, anything else a particle carries) by ``w``."""
    n = hands.shape[0]
    u = unit_nb(rng, 2) / n
    total = w[0]
    j = 0
    for p in range(n):
        x = u + p / n
        while x > total and j < n - 1:
            j += 1
            total += w[j]
        tmp_hands[p] = hands[j]
        tmp_logl[p] = logl[j]
        for card in range(source.shape[1]):
            tmp_source[p, card] = source[j, card]
    for p in range(n):
        hands[p] = tmp_hands[p]
        logl[p] = tmp_logl[p]
        for card in range(source.shape[1]):
            source[p, card] = tmp_source[p, card]


@jit
def seed_streams_nb(rng, seed, p):
    """The belief's streams for particle ``p`` (0: the whole sampler) from ``seed``."""
    rng[0] = stream_key_nb(seed, p, SEAT_STREAMS)
    rng[1] = stream_key_nb(seed, p, SEAT_STREAMS + 1)
    rng[2] = stream_key_nb(seed, p, BELIEF_DECK_STREAM)


@jit_inline
def prior_particles_nb(history, hidden, like, parts, work):
    """Every particle from the prior: hidden cards uniform, the draw order from the
    proposal of :func:`stock_cards_nb` (its prior/proposal ratio in ``parts.base``), and
    its log likelihood (each model's in ``parts.source[p, 52:]``)."""
    events, ev_card, rng = history.events, work.ev_card, work.rng
    unseen_cards = hidden.unseen_cards
    for p in range(parts.hands.shape[0]):
        parts.hands[p] = hidden_hand_nb(unseen_cards, unseen_cards.shape[0], hidden.n_hidden,
                                        hidden.held, rng)
        dealt, logc = stock_cards_nb(events, parts.hands[p], hidden.held, ev_card, rng)
        parts.base[p] = logc
        row = parts.source[p]
        for c in range(52):
            row[c] = -1
        for i in range(events.shape[0]):
            if events[i, 0] == 1 and events[i, 1] == EV_STOCK:
                row[ev_card[i]] = i
        parts.logl[p] = replay_log_weight_nb(history, dealt, like, -np.inf, work)
        keep_terms_nb(parts.source, p, like.lk)


@jit
def unseen_mask_nb(hidden):
    """The mask of the cards in ``hidden.unseen_cards``."""
    unseen = np.int64(0)
    for i in range(hidden.unseen_cards.shape[0]):
        unseen |= np.int64(1) << hidden.unseen_cards[i]
    return unseen


@jit_inline
def resample_move_nb(history, unseen, held, beta, moves, parts, like, work):
    """Resample the particles by ``parts.weights`` (their prior/proposal weights set to
    0), then ``moves`` rounds of a hand swap and an order exchange per particle at
    tempering ``beta``: one stage of the tempered sampler, and the carried belief's
    step (:mod:`ginsim.simulator.belief.carry_nb`) at ``beta`` 1."""
    n = parts.hands.shape[0]
    resample_nb(parts.hands, parts.logl, parts.source, parts.weights, parts.tmp_hands,
                parts.tmp_logl, parts.tmp_source, work.rng)
    for p in range(n):
        parts.base[p] = 0.0
    for _round in range(moves):
        for p in range(n):
            swap_move_nb(history, unseen, held, beta, parts, p, like, work)
            order_move_nb(history, beta, parts, p, like, work)


@jit
def smc_beliefs_nb(seed, history, hidden, like, moves, max_stages, parts, work):
    """Adaptive tempered sequential Monte Carlo over the opponent's hand and the order
    its stock draws brought its cards (``parts.source``, rows of 52 as in
    :func:`~ginsim.simulator.belief.replay_nb.state_log_weight_nb`, then each model's
    log likelihood as float64 bits in ``source[:, 52 + k]``: rows of ``52 +
    len(models)``).

    Particles start from the prior (:func:`prior_particles_nb`); the likelihood is
    brought in by steps that keep the ESS at half the particles, each followed by
    resampling and ``moves`` rounds of a hand swap and an order exchange per particle;
    after ``max_stages`` steps the rest comes in at once. Leaves the particles in
    ``parts.hands`` with normalised weights ``parts.weights``; returns the ESS of those
    final weights.
    """
    n = parts.hands.shape[0]
    logl, base, w = parts.logl, parts.base, parts.weights
    seed_streams_nb(work.rng, seed, 0)
    unseen = unseen_mask_nb(hidden)
    prior_particles_nb(history, hidden, like, parts, work)
    beta = 0.0
    for _stage in range(max_stages):
        step = next_step_nb(logl, base, beta, 0.5 * n, w)
        if beta + step >= 1.0 - 1e-9:
            break
        beta += step
        resample_move_nb(history, unseen, hidden.held, beta, moves, parts, like, work)
    return ess_nb(logl, base, 1.0 - beta, w)


@jit
def sample_beliefs_nb(seed, history, hidden, like, out_hands, out_logw, work):
    """Fill ``out_hands[p]`` (the opponent's hand now) and ``out_logw[p]`` for every
    particle ``p``; particle ``p`` draws from the stream ``(seed, p)``."""
    unseen = hidden.unseen_cards
    for p in range(out_hands.shape[0]):
        seed_streams_nb(work.rng, seed, p)
        hand = hidden_hand_nb(unseen, unseen.shape[0], hidden.n_hidden, hidden.held, work.rng)
        dealt, _ = stock_cards_nb(history.events, hand, hidden.held, work.ev_card, work.rng)
        out_hands[p] = hand
        out_logw[p] = replay_log_weight_nb(history, dealt, like, -np.inf, work)
