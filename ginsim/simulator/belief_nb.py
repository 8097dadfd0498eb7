"""Posterior sampling of the opponent's hidden cards from the public history.

Contract as in :mod:`ginsim.simulator.phases_nb`. A *particle* is one guess of the
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
model's, as before. A model of the expert kind scores a discard by agreement with its own
choice (the deviation cost for any other card), as pile choices are scored.

Events are rows ``(seat, kind, card, flag)`` of :mod:`ginsim.game.history`, seat 0
being the advised player.
"""

import numpy as np

from ..game._jit import jit
from ..game.bits_nb import nth_card_nb
from ..game.history import (
    DEFAULT_TEMPERATURE,
    DEFAULT_WAIT,
    EV_DISCARD,
    EV_PASS,
    EV_STOCK,
    EV_TAKE,
)
from ..game.melds_nb import (
    NO_DISCARD,
    W_DISCARD,
    best_discard_nb,
    lowest_card_nb,
    popcount_nb,
)
from ..game.rng_nb import below_nb, stream_key_nb, unit_nb
from ..game.state import (
    ST_DEALER,
    ST_DECK,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PASSED,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_TURNS,
    ST_UPCARD,
)
from ..strategies.expert_nb import expert_discard_nb
from ..strategies.params import KIND_EXPERT, P_KIND, P_MEMORY
from ..strategies.policy_nb import (
    discard_context_nb,
    knock_choice_nb,
    memory_discard_score_nb,
    pile_decision_nb,
)
from .board_nb import clear_position_nb, draw_stock_nb, put_discard_nb, take_pile_top_nb

DEVIATION = 5.0  # deadwood points a take/pass or knock against the model costs
TEMPERATURE = DEFAULT_TEMPERATURE  # softening in deadwood points (0.25: sharp, fits memory2)
WAIT = DEFAULT_WAIT  # P(opponent plays on where its model knocks)
KEEP_DRAWN = 0.5  # proposal: chance that a stock draw is the card discarded right after
FIRST_POS = 21  # deck position of the first stock card (21 dealt, or 20 + the upcard)


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
def discard_log_prob_nb(params, hand, forbidden, card, temperature, tab, hs, fresh=True):
    """log P(discard ``card``) under the softened model (see the module text). With
    ``fresh`` false the per-card table ``hs[W_DISCARD:]`` is already filled for this
    hand and is reused."""
    if fresh:
        best_discard_nb(hand, forbidden, 0, tab, hs, True)
    if int(params[1, P_KIND]) == KIND_EXPERT:
        return expert_discard_log_prob_nb(params, hand, forbidden, card, temperature, tab, hs)
    memory = params[1, P_MEMORY] >= 1
    live = fits = near = shunned = sets = runs = 0
    if memory:
        live, fits, near, shunned, sets, runs = discard_context_nb(params, 1, hand, hs, tab)
    low = 1e18  # the lowest score so far; total is the sum of exp(-(score - low) / T)
    total = 0.0
    mine = 0.0
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        if hs[W_DISCARD + c] >= NO_DISCARD:
            continue
        if memory:
            score = memory_discard_score_nb(params, 1, hand, c, live, fits, near, shunned,
                                            sets, runs, hs, tab)
        else:
            score = float(hs[W_DISCARD + c])
        if score < low:
            total = total * np.exp((score - low) / temperature) if total > 0.0 else 0.0
            low = score
        total += np.exp((low - score) / temperature)
        if c == card:
            mine = score
    return (low - mine) / temperature - np.log(total)


@jit
def expert_discard_log_prob_nb(params, hand, forbidden, card, temperature, tab, hs):
    """log P(discard ``card``) for an expert model: its own choice with weight 1, every
    other legal discard ``exp(-DEVIATION / T)`` (the per-card table must be filled)."""
    choice = expert_discard_nb(params, 1, hand, forbidden, hs, tab)
    legal = 0
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        if hs[W_DISCARD + c] < NO_DISCARD:
            legal += 1
    dev = DEVIATION / temperature
    total = np.log1p((legal - 1) * np.exp(-dev))
    return -total if card == choice else -dev - total


@jit
def mixture_log_nb(lk, log_prior):
    """log sum_k exp(log_prior[k] + lk[k]) (exactly ``log_prior[0] + lk[0]`` for one
    model)."""
    if lk.shape[0] == 1:
        return log_prior[0] + lk[0]
    top = -np.inf
    for k in range(lk.shape[0]):
        top = max(top, log_prior[k] + lk[k])
    if top == -np.inf:
        return top
    total = 0.0
    for k in range(lk.shape[0]):
        total += np.exp(log_prior[k] + lk[k] - top)
    return top + np.log(total)


@jit
def below_floor_nb(lk, log_prior, floor):
    """Whether the mixture likelihood is surely below ``floor`` (every term only falls):
    its largest term plus log(models) is."""
    top = -np.inf
    for k in range(lk.shape[0]):
        top = max(top, log_prior[k] + lk[k])
    return top + np.log(lk.shape[0]) < floor


@jit
def pile_terms_nb(models, lk, kind, top, planned, plan_knock, dev, rules, tab, hs, rng):
    """Score the opponent's take or pass of ``top`` under every model (``lk`` += the
    deviation where it disagrees); returns the new ``(planned, plan_knock)`` bit masks
    (model k took the card it was seen to take / would knock after it)."""
    planned = np.int64(0)
    plan_knock = np.int64(0)
    for k in range(models.shape[0]):
        take, _, _, knock, big = pile_decision_nb(models[k], 1, hs[ST_HAND + 1], top, hs,
                                                  rules, tab, rng)
        if take != (kind == EV_TAKE):
            lk[k] -= dev
        if take and kind == EV_TAKE:
            planned |= np.int64(1) << k
        if knock or big:
            plan_knock |= np.int64(1) << k
    return planned, plan_knock


@jit
def discard_terms_nb(models, lk, card, planned, plan_knock, temperature, log_wait, rules, tab,
                     hs, rng):
    """Score the opponent's discard of ``card`` under every model: log(wait) where the
    model would have knocked, plus the model's log probability of the card."""
    hand = hs[ST_HAND + 1]
    forbidden = hs[ST_FORBIDDEN] if popcount_nb(hand) == 11 else 0
    dw, _, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, hs, True)
    for k in range(models.shape[0]):
        if (planned >> k) & 1 == 0:
            # only the knock: the likelihood scores every discard itself
            knock, big = knock_choice_nb(models[k], 1, dw, all_melded, hs, rules, rng)
            if knock or big:
                lk[k] += log_wait
        elif (plan_knock >> k) & 1:
            lk[k] += log_wait
        lk[k] += discard_log_prob_nb(models[k], hand, forbidden, card, temperature, tab, hs,
                                     False)


@jit
def replay_log_weight_nb(events, dealer, upcard, knock_limit, dealt, ev_card, models,
                         log_prior, lk, rules, tab, temperature, log_wait, floor, hs, rng):
    """Replay the history with the opponent dealt ``dealt`` (stock draws ``ev_card``)
    and return the log likelihood of its observed choices under the mixture of
    ``models[k][1]`` (each model's own log likelihood in ``lk[k]``). Every choice adds a
    term of at most 0, so the replay stops early, returning a value below ``floor``,
    once the sum falls below it (a Metropolis move knows its floor first)."""
    clear_position_nb(hs, 0)
    hs[ST_HAND + 1] = dealt
    hs[ST_DEALER] = dealer
    hs[ST_KNOCK_LIMIT] = knock_limit
    hs[ST_POS] = FIRST_POS
    if upcard >= 0:
        hs[ST_UPCARD] = upcard
        hs[ST_PILE] = upcard
        hs[ST_PILE_LEN] = 1
        hs[ST_PILE_MASK] = 1 << upcard
    dev = DEVIATION / temperature
    for k in range(lk.shape[0]):
        lk[k] = 0.0
    planned = np.int64(0)
    plan_knock = np.int64(0)
    for i in range(events.shape[0]):
        seat = events[i, 0]
        kind = events[i, 1]
        card = events[i, 2]
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1] if hs[ST_PILE_LEN] > 0 else -1
        if seat == 1 and (kind == EV_PASS or kind == EV_TAKE
                          or (kind == EV_STOCK and events[i, 3] != 0)):
            planned, plan_knock = pile_terms_nb(models, lk, kind, top, planned, plan_knock,
                                                dev, rules, tab, hs, rng)
            if below_floor_nb(lk, log_prior, floor):
                return mixture_log_nb(lk, log_prior)
        if kind == EV_PASS:
            hs[ST_PASSED + seat] |= 1 << top
        elif kind == EV_TAKE:
            take_pile_top_nb(hs, seat)
        elif kind == EV_STOCK:
            if events[i, 3] != 0:
                hs[ST_PASSED + seat] |= 1 << top
            if seat == 1:
                hs[ST_DECK + hs[ST_POS]] = ev_card[i]
                draw_stock_nb(hs, 1)
                planned = np.int64(0)
            else:
                hs[ST_POS] += 1
                hs[ST_TURNS] += 1
        else:
            if seat == 1:
                discard_terms_nb(models, lk, card, planned, plan_knock, temperature, log_wait,
                                 rules, tab, hs, rng)
                if below_floor_nb(lk, log_prior, floor):
                    return mixture_log_nb(lk, log_prior)
                planned = np.int64(0)
                hs[ST_FORBIDDEN] = 0
            put_discard_nb(hs, seat, card, 0, False, False, rules)  # seat 0's cards unknown
    return mixture_log_nb(lk, log_prior)


@jit
def dealt_hand_nb(events, hand_now, ev_card):
    """The opponent's dealt hand: ``hand_now`` with its discards put back and its
    pickups and stock draws (``ev_card[event]``) taken out, walking backwards."""
    hand = hand_now
    for i in range(events.shape[0] - 1, -1, -1):
        if events[i, 0] != 1:
            continue
        kind = events[i, 1]
        if kind == EV_DISCARD:
            hand |= 1 << events[i, 2]
        elif kind == EV_TAKE:
            hand &= ~(1 << events[i, 2])
        elif kind == EV_STOCK:
            hand &= ~(1 << ev_card[i])
    return hand


@jit
def draws_from_source_nb(source, ev_card):
    """``ev_card[event]`` = the card drawn at each opponent stock event, from a particle's
    ``source`` row (``source[c]``: the stock event that drew card ``c``, or -1: dealt,
    taken from the pile or never held)."""
    for c in range(52):
        if source[c] >= 0:
            ev_card[source[c]] = c


@jit
def state_log_weight_nb(events, dealer, upcard, knock_limit, hand, source, models, log_prior,
                        lk, rules, tab, temperature, log_wait, floor, ev_card, hs, rng):
    """Log likelihood of a particle: the opponent holds ``hand`` now and its stock draws
    are ``source`` (:func:`draws_from_source_nb`); each model's own in ``lk``."""
    draws_from_source_nb(source, ev_card)
    dealt = dealt_hand_nb(events, hand, ev_card)
    return replay_log_weight_nb(events, dealer, upcard, knock_limit, dealt, ev_card, models,
                                log_prior, lk, rules, tab, temperature, log_wait, floor, hs,
                                rng)


@jit
def keep_terms_nb(lks, p, lk):
    """Particle ``p`` takes the per-model log likelihoods ``lk`` of an accepted move."""
    for k in range(lk.shape[0]):
        lks[p, k] = lk[k]


@jit
def move_floor_nb(logl, beta, rng):
    """A Metropolis move from a particle of log likelihood ``logl`` at tempering ``beta``
    is accepted when the proposal's log likelihood is above this (uniform ``u``:
    ``beta * (new - logl) > log u``)."""
    return logl + np.log(1.0 - unit_nb(rng, 2)) / beta


@jit
def swap_move_nb(events, dealer, upcard, knock_limit, unseen, held, beta, hands, logl, source,
                 p, models, log_prior, lks, lk, rules, tab, temperature, log_wait, ev_card, hs,
                 rng):
    """Swap a hidden card of particle ``p`` for an unseen one, which takes its place in
    the draw order (dealt, or drawn at the same stock event): a symmetric proposal
    under a prior uniform over hands and orders, accepted by the tempered likelihood."""
    mine = hands[p] & ~held
    out = unseen & ~hands[p]
    n_mine = popcount_nb(mine)
    n_out = popcount_nb(out)
    if n_mine == 0 or n_out == 0:
        return
    a = nth_card_nb(mine, below_nb(rng, 2, n_mine))
    b = nth_card_nb(out, below_nb(rng, 2, n_out))
    row = source[p]
    row[b] = row[a]
    row[a] = -1
    proposal = (hands[p] & ~(1 << a)) | (1 << b)
    floor = move_floor_nb(logl[p], beta, rng)
    value = state_log_weight_nb(events, dealer, upcard, knock_limit, proposal, row, models,
                                log_prior, lk, rules, tab, temperature, log_wait, floor,
                                ev_card, hs, rng)
    if value > floor:
        hands[p] = proposal
        logl[p] = value
        keep_terms_nb(lks, p, lk)
    else:
        row[a] = row[b]
        row[b] = -1


@jit
def order_move_nb(events, dealer, upcard, knock_limit, beta, hands, logl, source, p, models,
                  log_prior, lks, lk, rules, tab, temperature, log_wait, ev_card, hs, rng):
    """At a random stock draw of the opponent, exchange the card drawn with one it held
    just before (not from the pile): that card is drawn there instead, and the other
    takes its earlier place (dealt or drawn). The same hand now, another order; the
    proposal is its own inverse with the same number of choices, so symmetric."""
    draws = 0
    for i in range(events.shape[0]):
        if events[i, 0] == 1 and events[i, 1] == EV_STOCK:
            draws += 1
    if draws == 0:
        return
    k = below_nb(rng, 2, draws)
    at = -1
    for i in range(events.shape[0]):
        if events[i, 0] == 1 and events[i, 1] == EV_STOCK:
            if k == 0:
                at = i
                break
            k -= 1
    row = source[p]
    draws_from_source_nb(row, ev_card)
    hand = dealt_hand_nb(events, hands[p], ev_card)
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
    pool = hand & ~from_pile
    if pool == 0:
        return
    x = ev_card[at]
    y = nth_card_nb(pool, below_nb(rng, 2, popcount_nb(pool)))
    row[x] = row[y]
    row[y] = at
    floor = move_floor_nb(logl[p], beta, rng)
    value = state_log_weight_nb(events, dealer, upcard, knock_limit, hands[p], row, models,
                                log_prior, lk, rules, tab, temperature, log_wait, floor,
                                ev_card, hs, rng)
    if value > floor:
        logl[p] = value
        keep_terms_nb(lks, p, lk)
    else:
        row[y] = row[x]
        row[x] = at


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
def smc_beliefs_nb(seed, events, dealer, upcard, knock_limit, unseen_cards, n_hidden, held,
                   models, log_prior, lk, rules, tab, temperature, log_wait, moves, max_stages,
                   hands, logl, base, w, tmp_hands, tmp_logl, source, tmp_source, ev_card, hs,
                   rng):
    """Adaptive tempered sequential Monte Carlo over the opponent's hand and the order
    its stock draws brought its cards (``source``, rows of 52 as in
    :func:`state_log_weight_nb`, then each model's log likelihood as float64 bits in
    ``source[:, 52 + k]``: rows of ``52 + len(models)``; ``lk`` is a buffer of one per
    model).

    Particles start from the prior (uniform hidden cards; draw orders from the proposal
    of :func:`stock_cards_nb`, weighted by their prior/proposal ratio); the likelihood is
    brought in by steps that keep the ESS at half the particles, each followed by
    resampling and ``moves`` rounds of a hand swap and an order exchange per particle;
    after ``max_stages`` steps the rest comes in at once. Leaves the particles in
    ``hands`` with normalised weights ``w``; returns the ESS of those final weights.
    """
    n = hands.shape[0]
    n_models = models.shape[0]
    lks = source.view(np.float64)[:, 52:52 + n_models]
    rng[0] = stream_key_nb(seed, 0, 1)
    rng[1] = stream_key_nb(seed, 0, 2)
    rng[2] = stream_key_nb(seed, 0, 3)
    unseen = np.int64(0)
    for i in range(unseen_cards.shape[0]):
        unseen |= 1 << unseen_cards[i]
    for p in range(n):
        hands[p] = hidden_hand_nb(unseen_cards, unseen_cards.shape[0], n_hidden, held, rng)
        dealt, logc = stock_cards_nb(events, hands[p], held, ev_card, rng)
        base[p] = logc
        row = source[p]
        for c in range(52):
            row[c] = -1
        for i in range(events.shape[0]):
            if events[i, 0] == 1 and events[i, 1] == EV_STOCK:
                row[ev_card[i]] = i
        logl[p] = replay_log_weight_nb(events, dealer, upcard, knock_limit, dealt, ev_card,
                                       models, log_prior, lk, rules, tab, temperature, log_wait,
                                       -np.inf, hs, rng)
        keep_terms_nb(lks, p, lk)
    beta = 0.0
    stage = 0
    while True:
        if stage >= max_stages:
            return ess_nb(logl, base, 1.0 - beta, w)
        step = next_step_nb(logl, base, beta, 0.5 * n, w)
        if beta + step >= 1.0 - 1e-9:
            return ess_nb(logl, base, 1.0 - beta, w)
        beta += step
        resample_nb(hands, logl, source, w, tmp_hands, tmp_logl, tmp_source, rng)
        for p in range(n):
            base[p] = 0.0
        for _ in range(moves):
            for p in range(n):
                swap_move_nb(events, dealer, upcard, knock_limit, unseen, held, beta, hands,
                             logl, source, p, models, log_prior, lks, lk, rules, tab,
                             temperature, log_wait, ev_card, hs, rng)
                order_move_nb(events, dealer, upcard, knock_limit, beta, hands, logl, source,
                              p, models, log_prior, lks, lk, rules, tab, temperature, log_wait,
                              ev_card, hs, rng)
        stage += 1


@jit
def sample_beliefs_nb(seed, events, dealer, upcard, knock_limit, unseen, n_hidden, held,
                      models, log_prior, lk, rules, tab, temperature, log_wait, out_hands,
                      out_logw, ev_card, hs, rng):
    """Fill ``out_hands[p]`` (the opponent's hand now) and ``out_logw[p]`` for every
    particle ``p``; particle ``p`` draws from the stream ``(seed, p)``."""
    n_unseen = unseen.shape[0]
    for p in range(out_hands.shape[0]):
        rng[0] = stream_key_nb(seed, p, 1)
        rng[1] = stream_key_nb(seed, p, 2)
        rng[2] = stream_key_nb(seed, p, 3)
        hand = hidden_hand_nb(unseen, n_unseen, n_hidden, held, rng)
        dealt, _ = stock_cards_nb(events, hand, held, ev_card, rng)
        out_hands[p] = hand
        out_logw[p] = replay_log_weight_nb(events, dealer, upcard, knock_limit, dealt, ev_card,
                                           models, log_prior, lk, rules, tab, temperature,
                                           log_wait, -np.inf, hs, rng)
