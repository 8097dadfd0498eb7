"""The belief's likelihood: the history replayed forwards with the opponent dealt a
guessed hand, each of its observed choices scored under every opponent model (see
:mod:`ginsim.simulator.belief.sample_nb` for the model and its softening).

Contract as in :mod:`ginsim.simulator.play.drive_nb`; the data are the named tuples of
:mod:`ginsim.simulator.belief.belief_types`.
"""

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import lowest_card_nb, popcount_nb
from ...game.history import (
    DEFAULT_TEMPERATURE,
    DEFAULT_WAIT,
    EV_DISCARD,
    EV_PASS,
    EV_STOCK,
    EV_TAKE,
)
from ...game.melds_nb import NO_DISCARD, W_DISCARD, best_discard_nb
from ...game.state import (
    ST_FORBIDDEN,
    ST_HAND,
    ST_PILE,
    ST_PILE_LEN,
)
from ...strategies.expert_nb import expert_discard_nb
from ...strategies.hand_reading_nb import discard_context_nb
from ...strategies.learned.learned_nb import learned_discard_nb
from ...strategies.params import KIND_EXPERT, KIND_LEARNED, P_KIND, P_MEMORY
from ...strategies.policy_nb import knock_choice_nb, memory_discard_score_nb, pile_decision_nb
from ..machine.deal_nb import FIRST_POS, lay_deal_nb
from ..machine.view_nb import replay_event_nb

DEVIATION = 5.0  # deadwood points a take/pass or knock against the model costs
TEMPERATURE = DEFAULT_TEMPERATURE  # softening in deadwood points (0.25: sharp, fits memory2)
WAIT = DEFAULT_WAIT  # P(opponent plays on where its model knocks)


@jit
def discard_log_prob_nb(params, hand, forbidden, card, temperature, tab, board, fresh=True):
    """log P(discard ``card``) under the softened model (see the module text). With
    ``fresh`` false the per-card table ``board.work[W_DISCARD:]`` is already filled for
    this hand and is reused."""
    work = board.work
    if fresh:
        best_discard_nb(hand, forbidden, 0, tab, work, True)
    kind = int(params[1, P_KIND])
    if kind == KIND_EXPERT or kind == KIND_LEARNED:
        return chosen_discard_log_prob_nb(params, hand, forbidden, card, temperature, tab,
                                          board)
    memory = params[1, P_MEMORY] >= 1
    live = fits = near = shunned = sets = runs = 0
    if memory:
        live, fits, near, shunned, sets, runs = discard_context_nb(params, np.int64(1), hand,
                                                                   board.hs, tab)
    low = 1e18  # the lowest score so far; total is the sum of exp(-(score - low) / T)
    total = 0.0
    mine = 0.0
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        if work[W_DISCARD + c] >= NO_DISCARD:
            continue
        if memory:
            score = memory_discard_score_nb(params, np.int64(1), hand, c,
                                            (live, fits, near, shunned, sets, runs), work, tab)
        else:
            score = float(work[W_DISCARD + c])
        if score < low:
            total = total * np.exp((score - low) / temperature) if total > 0.0 else 0.0
            low = score
        total += np.exp((low - score) / temperature)
        if c == card:
            mine = score
    return (low - mine) / temperature - np.log(total)


@jit
def chosen_discard_log_prob_nb(params, hand, forbidden, card, temperature, tab, board):
    """log P(discard ``card``) for an expert or a learned model, which choose a discard
    rather than score cards in deadwood points: its own choice with weight 1, every other
    legal discard ``exp(-DEVIATION / T)`` (the per-card table must be filled)."""
    if int(params[1, P_KIND]) == KIND_EXPERT:
        choice = expert_discard_nb(params, np.int64(1), hand, forbidden, board, tab)
    else:
        choice = learned_discard_nb(params, np.int64(1), hand, forbidden, board, tab)
    legal = 0
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        if board.work[W_DISCARD + c] < NO_DISCARD:
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
def pile_terms_nb(like, kind, top, dev, board, rng):
    """Score the opponent's take or pass of ``top`` under every model (``like.lk`` +=
    the deviation where it disagrees); returns the ``(planned, plan_knock)`` bit masks
    (model k took the card it was seen to take / would knock after it)."""
    planned = np.int64(0)
    plan_knock = np.int64(0)
    models = like.models
    for k in range(models.shape[0]):
        take, _, _, knock, big = pile_decision_nb(models[k], 1, board.hs[ST_HAND + 1], top,
                                                  board, like.rules, like.tab, rng)
        if take != (kind == EV_TAKE):
            like.lk[k] -= dev
        if take and kind == EV_TAKE:
            planned |= np.int64(1) << k
        if knock or big:
            plan_knock |= np.int64(1) << k
    return planned, plan_knock


@jit
def discard_terms_nb(like, card, planned, plan_knock, board, rng):
    """Score the opponent's discard of ``card`` under every model: log(wait) where the
    model would have knocked, plus the model's log probability of the card."""
    hs = board.hs
    hand = hs[ST_HAND + 1]
    forbidden = hs[ST_FORBIDDEN] if popcount_nb(hand) == 11 else 0
    dw, _, _, all_melded = best_discard_nb(hand, forbidden, 0, like.tab, board.work, True)
    models = like.models
    for k in range(models.shape[0]):
        if (planned >> k) & 1 == 0:
            # only the knock: the likelihood scores every discard itself
            knock, big = knock_choice_nb(models[k], 1, dw, all_melded, hs, like.rules, rng)
            if knock or big:
                like.lk[k] += like.log_wait
        elif (plan_knock >> k) & 1:
            like.lk[k] += like.log_wait
        like.lk[k] += discard_log_prob_nb(models[k], hand, forbidden, card, like.temperature,
                                          like.tab, board, False)


@jit
def start_replay_nb(history, dealt, hs):
    """The position at the deal: the opponent holding ``dealt``, the upcard (if any)
    on the pile, seat 0's cards unknown."""
    lay_deal_nb(hs, np.int64(0), history.dealer, (np.int64(0), dealt), history.upcard, FIRST_POS,
                history.knock_limit)


@jit_inline
def pile_choice_nb(events, i):
    """Whether event ``i`` is a choice about the pile's top card: a pass, a take, or a
    stock draw that declined it (flag 1: the pile was allowed)."""
    kind = events[i, 1]
    return kind == EV_PASS or kind == EV_TAKE or (kind == EV_STOCK and events[i, 3] != 0)


@jit
def replay_log_weight_nb(history, dealt, like, floor, work):
    """Replay the history with the opponent dealt ``dealt`` (stock draws
    ``work.ev_card``) and return the log likelihood of its observed choices under the
    mixture of ``like.models[k][1]`` (each model's own log likelihood in ``like.lk[k]``).
    Every choice adds a term of at most 0, so the replay stops early, returning a value
    below ``floor``, once the sum falls below it (a Metropolis move knows its floor
    first)."""
    board, rng = work.board, work.rng
    hs = board.hs
    events = history.events
    start_replay_nb(history, dealt, hs)
    dev = DEVIATION / like.temperature
    for k in range(like.lk.shape[0]):
        like.lk[k] = 0.0
    planned = np.int64(0)
    plan_knock = np.int64(0)
    for i in range(events.shape[0]):
        kind = events[i, 1]
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1] if hs[ST_PILE_LEN] > 0 else -1
        if events[i, 0] == 1:
            if pile_choice_nb(events, i):
                planned, plan_knock = pile_terms_nb(like, kind, top, dev, board, rng)
                if below_floor_nb(like.lk, like.log_prior, floor):
                    return mixture_log_nb(like.lk, like.log_prior)
            if kind == EV_STOCK:
                planned = np.int64(0)
            elif kind == EV_DISCARD:
                discard_terms_nb(like, events[i, 2], planned, plan_knock, board, rng)
                if below_floor_nb(like.lk, like.log_prior, floor):
                    return mixture_log_nb(like.lk, like.log_prior)
                planned = np.int64(0)
        replay_event_nb(hs, events[i, 0], kind, events[i, 2], events[i, 3], top,
                        work.ev_card[i], like.rules)
    return mixture_log_nb(like.lk, like.log_prior)


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


@jit_inline
def state_log_weight_nb(history, hand, source, like, floor, work):
    """Log likelihood of a particle: the opponent holds ``hand`` now and its stock draws
    are ``source`` (:func:`draws_from_source_nb`); each model's own in ``like.lk``."""
    draws_from_source_nb(source, work.ev_card)
    dealt = dealt_hand_nb(history.events, hand, work.ev_card)
    return replay_log_weight_nb(history, dealt, like, floor, work)
