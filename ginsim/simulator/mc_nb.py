"""The Monte Carlo player: every choice by rollouts over posterior-sampled worlds.

Contract as in :mod:`ginsim.simulator.phases_nb`. A seat whose parameter row is of kind
``KIND_MC`` (:mod:`ginsim.strategies.params`) is an mc player; :func:`mc_play_hand_nb`
plays a hand in which one or both seats are, through the same phase primitives as the
hand loop. At each of its choices (the draw, the discard and knock; the upcard offer is
its rollout strategy's) the mc seat samples the opponent's hand from the public history
(:mod:`belief_nb`), lays out
``rollouts`` worlds (a resampled guess and a shuffled stock of the remaining unseen
cards) on a copy of the position, plays each option in every world with the rollout
strategies (its own ``rollout`` vector, the opponent as its ``model``). It plays what its
rollout strategy would unless another option gains more than ``margin`` standard errors
of the paired difference in the same worlds (the largest such gain): flat Monte Carlo
that takes the best of a few noisy means mostly trades a sound choice for a lucky one
(on 2,000 duplicate deals against memory2:knock=0, +2.79 points a hand with margin 1
against +0.69 with the plain best mean). The copy never sees the real hidden cards:
the opponent's hand and the stock are overwritten before any option is played.

Literal arguments to these kernels are written ``np.int64(...)`` / ``np.bool_(...)``:
numba compiles a separate copy of a callee for every literal value passed to it, and the
mc kernels are large.

The extra memory lives in the hand state itself, past ``HS_SIZE`` (``MC_*`` offsets
below; :data:`~ginsim.simulator.hand_nb.SCRATCH_SIZE` covers it), so every driver that
plays hands can play an mc seat. Events for the belief are ``(seat, kind, card, flag)``
rows of :mod:`ginsim.game.history` with absolute seats, turned relative to the deciding
seat (0 = itself) when it samples.
"""

import numpy as np

from ..game._jit import jit, jit_inline
from ..game.history import EV_DISCARD, EV_PASS, EV_STOCK, EV_TAKE
from ..game.melds_nb import NO_DISCARD, W_DISCARD, best_discard_nb, popcount_nb
from ..game.rng_nb import below_nb, stream_key_nb
from ..game.rules import DEAL_ELEVEN, R_BIG_GIN_BONUS, R_DEAL
from ..game.state import (
    FULL_DECK,
    HS_SIZE,
    PH_LAST_DISCARD,
    PH_OFFER,
    SOURCE_DEAL,
    SOURCE_PILE,
    ST_DEALER,
    ST_DECK,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PLANNED,
    ST_POS,
    ST_SOURCE,
    ST_TAKEN,
    ST_TO_MOVE,
    ST_TURNS,
    ST_UPCARD,
)
from ..strategies.params import (
    KIND_MC,
    MC_MAX_PARTICLES,
    MC_MODELS,
    P_BASE,
    P_KIND,
    P_MC_MARGIN,
    P_MC_MODEL,
    P_MC_MOVES,
    P_MC_ORACLE,
    P_MC_PARTICLES,
    P_MC_PRIOR,
    P_MC_ROLLOUT,
    P_MC_ROLLOUTS,
    P_MC_STAGES,
    P_MC_TEMPERATURE,
    P_MC_WAIT,
    PARAMETERS,
)
from ..strategies.policy_nb import choose_discard_nb, discard_without_knock_nb, pile_decision_nb
from .belief_nb import smc_beliefs_nb
from .phases_nb import (
    apply_discard_nb,
    apply_draw_nb,
    apply_offer_nb,
    copy_position_nb,
    deal_nb,
    discard_nb,
    draw_nb,
    draw_stock_nb,
    last_discard_turn_nb,
    net_points_nb,
    play_on_nb,
    play_turn_nb,
    seat_streams_nb,
    showdown_nb,
    take_pile_top_nb,
    trace_turn_nb,
)
from .records import ACTION_DISCARD

MAX_EVENTS = 1200  # MAX_TURNS draws, two events each, and the offers
CANDIDATES = 4  # discards tried by rollouts: the lowest kept deadwood ones
MC_STREAM = 11

# The mc scratch past HS_SIZE: two hand states (rollout worlds, belief replays), three
# random streams, the events, the belief's integer and float arrays, the phases' row
# pair, the belief's and the rollouts' row pairs per opponent model, the mixture (log
# priors, a buffer, the number of models, each guess's cumulative model weights), the
# rollout values and the guesses' draw orders (rows of SOURCE_WIDTH).
MC_BRANCH = HS_SIZE
MC_BELIEF = MC_BRANCH + HS_SIZE
MC_RNG = MC_BELIEF + HS_SIZE
MC_EVENTS = MC_RNG + 4
MC_REL = MC_EVENTS + 4 * MAX_EVENTS
MC_EV_CARD = MC_REL + 4 * MAX_EVENTS
MC_CARDS = MC_EV_CARD + MAX_EVENTS  # unseen cards, then a shuffle order (52 each)
MC_HANDS = MC_CARDS + 104  # particles, then the resampling copy
MC_FLOATS = MC_HANDS + 2 * MC_MAX_PARTICLES  # four float arrays of MC_MAX_PARTICLES
MC_ROWS = MC_FLOATS + 4 * MC_MAX_PARTICLES  # the phases' row pair
MC_MODEL_ROWS = MC_ROWS + 2 * P_BASE  # belief rows per model: [k, 0] rollout, [k, 1] model k
MC_PAIRS = MC_MODEL_ROWS + 2 * MC_MODELS * P_BASE  # rollout rows per model, by absolute seat
MC_MIX = MC_PAIRS + 2 * MC_MODELS * P_BASE  # log priors, then a buffer (MC_MODELS each)
MC_N_MODELS = MC_MIX + 2 * MC_MODELS  # the number of models mixed now
MC_RESP = MC_N_MODELS + 1  # per guess: cumulative posterior weights of the models
MAX_MC_ROLLOUTS = int(PARAMETERS["rollouts"].high)
MC_VALUES = MC_RESP + MC_MODELS * MC_MAX_PARTICLES  # per-rollout values: the rollout
# strategy's choice, another
SOURCE_WIDTH = 52 + MC_MODELS  # a guess's draw order, then its per-model log likelihoods
MC_SOURCE = MC_VALUES + 2 * MAX_MC_ROLLOUTS  # each particle's source row, then the copy
MC_END = MC_SOURCE + 2 * SOURCE_WIDTH * MC_MAX_PARTICLES
GOLDEN_FRACTION = 0.6180339887498949  # spreads the model draws of successive worlds

OPT_DISCARD = 0
OPT_TAKE = 1
OPT_STOCK = 2
OPT_PASS = 3  # decline the upcard offer


@jit_inline
def is_mc_nb(params, seat):
    return params[seat, P_KIND] == KIND_MC


@jit_inline
def rows_nb(hs, k):
    """The phases' row pair (``k`` = 0) in the scratch (inlined: a kernel without
    numba's runtime cannot return a view it made)."""
    start = MC_ROWS + 2 * P_BASE * k
    return hs[start:start + 2 * P_BASE].view(np.float64).reshape(2, P_BASE)


@jit_inline
def model_rows_nb(hs):
    """The belief's row pairs, one per opponent model: float64[MC_MODELS, 2, P_BASE]."""
    return hs[MC_MODEL_ROWS:MC_PAIRS].view(np.float64).reshape(MC_MODELS, 2, P_BASE)


@jit_inline
def pairs_nb(hs):
    """The rollouts' row pairs (by absolute seat), one per opponent model."""
    return hs[MC_PAIRS:MC_MIX].view(np.float64).reshape(MC_MODELS, 2, P_BASE)


@jit_inline
def mixture_nb(hs):
    """The log priors of the models mixed now and a buffer of one float per model."""
    mix = hs[MC_MIX:MC_N_MODELS].view(np.float64)
    return mix[:MC_MODELS], mix[MC_MODELS:]


@jit
def copy_row_nb(dst, row, params, seat, start):
    for i in range(P_BASE):
        dst[row, i] = params[seat, start + i]


@jit
def add_event_nb(events, n, seat, kind, card, flag):
    events[n, 0] = seat
    events[n, 1] = kind
    events[n, 2] = card
    events[n, 3] = flag
    return n + 1


@jit
def from_pile_nb(events, n, seat, card):
    """1 if ``seat`` took ``card`` from the pile earlier (and so still held it)."""
    for i in range(n - 1, -1, -1):
        if events[i, 0] == seat and events[i, 2] == card:
            return 1 if events[i, 1] == EV_TAKE else 0
    return 0


@jit
def world_nb(hs, branch, rng, branch_rng, me, opp_hand, unseen, key, w, order):
    """Lay out world ``w`` on ``branch``: the position of ``hs``, the opponent holding
    ``opp_hand`` and the stock a shuffle of the other unseen cards."""
    copy_position_nb(hs, branch, rng, branch_rng)
    branch[ST_HAND + 1 - me] = opp_hand
    rest = unseen & ~opp_hand
    k = 0
    while rest != 0:
        c = 0
        low = rest & -rest
        while (low >> c) != 1:
            c += 1
        order[k] = c
        k += 1
        rest &= rest - 1
    branch_rng[2] = stream_key_nb(key, w, 5)
    for i in range(k - 1, 0, -1):
        j = below_nb(branch_rng, 2, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    pos = branch[ST_POS]
    for i in range(k):
        if pos + i < 52:
            branch[ST_DECK + pos + i] = order[i]
    seat_streams_nb(branch_rng, key, w)


@jit
def pick_world_nb(w, u):
    """Index of the particle at cumulative weight ``u`` in [0, 1)."""
    c = 0.0
    for p in range(w.shape[0]):
        c += w[p]
        if u < c:
            return p
    return w.shape[0] - 1


@jit
def beliefs_nb(hs, me, n_ev, n, rules, tab, temperature, log_wait, stages, moves, key):
    """Sample ``n`` guesses of the opponent's hand now from the events so far under the
    mixture of models set by :func:`prepare_nb` (weights in the float scratch, each
    guess's cumulative model weights at ``MC_RESP``); returns the unseen mask."""
    events = hs[MC_EVENTS:MC_REL].reshape(MAX_EVENTS, 4)
    rel = hs[MC_REL:MC_EV_CARD].reshape(MAX_EVENTS, 4)
    for i in range(n_ev):
        rel[i, 0] = 0 if events[i, 0] == me else 1
        for j in range(1, 4):
            rel[i, j] = events[i, j]
    opp = 1 - me
    held = hs[ST_TAKEN + opp]
    unseen = FULL_DECK & ~hs[ST_HAND + me] & ~hs[ST_PILE_MASK] & ~held
    cards = hs[MC_CARDS:MC_CARDS + 52]
    k = 0
    for c in range(52):
        if (unseen >> c) & 1:
            cards[k] = c
            k += 1
    floats = hs[MC_FLOATS:MC_ROWS].view(np.float64)
    m = MC_MAX_PARTICLES
    n_models = hs[MC_N_MODELS]
    log_prior, lk = mixture_nb(hs)
    width = SOURCE_WIDTH
    source = hs[MC_SOURCE:MC_SOURCE + width * n].reshape(n, width)
    smc_beliefs_nb(key, rel[:n_ev], np.int64(hs[ST_DEALER] != me), hs[ST_UPCARD],
                   hs[ST_KNOCK_LIMIT], cards[:k], 10 - popcount_nb(held), held,
                   model_rows_nb(hs)[:n_models], log_prior[:n_models], lk[:n_models], rules,
                   tab, temperature, log_wait, moves, stages, hs[MC_HANDS:MC_HANDS + n],
                   floats[:n], floats[3 * m:3 * m + n], floats[m:m + n],
                   hs[MC_HANDS + m:MC_HANDS + m + n], floats[2 * m:2 * m + n], source,
                   hs[MC_SOURCE + width * m:MC_SOURCE + width * (m + n)].reshape(n, width),
                   hs[MC_EV_CARD:MC_CARDS], hs[MC_BELIEF:MC_BELIEF + HS_SIZE],
                   hs[MC_RNG:MC_RNG + 3].view(np.uint64))
    responsibilities_nb(source.view(np.float64), n, n_models, log_prior,
                        hs[MC_RESP:MC_VALUES].view(np.float64))
    return unseen


@jit
def responsibilities_nb(source, n, n_models, log_prior, resp):
    """Each guess's cumulative posterior weights of the models, ``resp[p * MC_MODELS +
    k]`` (prior times the model's likelihood, normalised; read from ``source[p, 52:]``)."""
    for p in range(n):
        top = -np.inf
        for k in range(n_models):
            top = max(top, log_prior[k] + source[p, 52 + k])
        total = 0.0
        for k in range(n_models):
            x = np.exp(log_prior[k] + source[p, 52 + k] - top) if top > -np.inf else 1.0
            resp[p * MC_MODELS + k] = x
            total += x
        c = 0.0
        for k in range(n_models):
            c += resp[p * MC_MODELS + k] / total
            resp[p * MC_MODELS + k] = c


@jit
def world_model_nb(hs, p, u):
    """The opponent model of a world built on guess ``p``: drawn at ``u`` in [0, 1) from
    the guess's posterior over the models."""
    n_models = hs[MC_N_MODELS]
    resp = hs[MC_RESP:MC_VALUES].view(np.float64)
    for k in range(n_models - 1):
        if u < resp[p * MC_MODELS + k]:
            return k
    return n_models - 1


@jit
def pass_on_nb(branch, me, pair, rules, tab, branch_rng, empty):
    """In a world: ``me`` declines the upcard; the offers go on as :func:`first_turn_nb`
    plays them (the dealer's offer, then the non-dealer's forced stock draw)."""
    up = branch[ST_UPCARD]
    branch[ST_PHASE] = PH_OFFER  # the offer to ``me`` (a constructed position may lack it)
    branch[ST_TO_MOVE] = me
    apply_offer_nb(branch, me, False)
    dealer = branch[ST_DEALER]
    if me != dealer:
        take, discard, dw, knock, big = pile_decision_nb(pair, dealer, branch[ST_HAND + dealer],
                                                         up, branch, rules, tab, branch_rng)
        apply_offer_nb(branch, dealer, take)
        if take:
            apply_discard_nb(branch, dealer, discard, dw, knock, big, rules)
            if branch[ST_ENDING] < 0:
                play_on_nb(branch, me, pair, rules, tab, branch_rng, empty)
            return
    nondealer = 1 - dealer
    play_turn_nb(branch, nondealer, False, pair, rules, tab, branch_rng, empty)
    if branch[ST_ENDING] < 0:
        play_on_nb(branch, dealer, pair, rules, tab, branch_rng, empty)


@jit
def option_value_nb(hs, me, kind, card, knock, kept, n, unseen, exclude, rollouts, key, rules,
                    tab, rng, empty, slot):
    """Net points (``me`` minus the opponent) of one option in each of ``rollouts``
    worlds, into value buffer ``slot``: discard ``card`` (knocking if ``knock``), take the
    pile card, draw from the stock (each then discarding as the rollout strategy does)
    or pass the upcard; then both rollout strategies play on. Worlds are the same for
    every option, and so is the opponent's model in each (drawn from its guess's posterior
    over the models). Returns the mean."""
    values = values_nb(hs, slot)
    pairs = pairs_nb(hs)
    branch = hs[MC_BRANCH:MC_BRANCH + HS_SIZE]
    branch_rng = hs[MC_RNG:MC_RNG + 3].view(np.uint64)
    order = hs[MC_CARDS + 52:MC_CARDS + 104]
    hands = hs[MC_HANDS:MC_HANDS + n]
    w = hs[MC_FLOATS + MC_MAX_PARTICLES:MC_FLOATS + MC_MAX_PARTICLES + n].view(np.float64)
    total = 0.0
    for r in range(rollouts):
        p = pick_world_nb(w, (r + 0.5) / rollouts)
        pair = pairs[world_model_nb(hs, p, (r * GOLDEN_FRACTION + 0.5 / rollouts) % 1.0)]
        opp_hand = hands[p]
        if (opp_hand & exclude) != 0:
            # the mc seat drew this card from the stock: swap it for another unseen card
            free = unseen & ~opp_hand & ~exclude
            opp_hand &= ~exclude
            k = (r * 7 + p) % popcount_nb(free)
            for c in range(52):
                if (free >> c) & 1:
                    if k == 0:
                        opp_hand |= 1 << c
                        break
                    k -= 1
        world_nb(hs, branch, rng, branch_rng, me, opp_hand, unseen & ~exclude, key, r, order)
        if kind == OPT_PASS:
            pass_on_nb(branch, me, pair, rules, tab, branch_rng, empty)
        else:
            if kind == OPT_DISCARD:
                apply_discard_nb(branch, me, card, kept, knock, False, rules)
            else:
                if kind == OPT_TAKE:
                    take_pile_top_nb(branch, me)
                else:
                    draw_stock_nb(branch, me)
                branch[ST_PLANNED] = 0
                discard_nb(branch, me, pair, rules, tab, branch_rng)
            if branch[ST_ENDING] < 0:
                play_on_nb(branch, 1 - me, pair, rules, tab, branch_rng, empty)
        showdown_nb(branch, rules, tab)
        values[r] = net_points_nb(branch, me)
        total += values[r]
    return total / rollouts


@jit_inline
def values_nb(hs, slot):
    """Value buffer ``slot`` (0: the rollout strategy's own choice, 1: another)."""
    start = MC_VALUES + slot * MAX_MC_ROLLOUTS
    return hs[start:start + MAX_MC_ROLLOUTS].view(np.float64)


@jit
def gain_nb(hs, rollouts, margin):
    """The mean gain of buffer 1 over buffer 0 (the same worlds), less ``margin``
    standard errors of that paired difference."""
    base = values_nb(hs, 0)
    other = values_nb(hs, 1)
    total = 0.0
    squares = 0.0
    for r in range(rollouts):
        d = other[r] - base[r]
        total += d
        squares += d * d
    mean = total / rollouts
    if rollouts < 2:
        return mean
    var = max(squares / rollouts - mean * mean, 0.0) * rollouts / (rollouts - 1)
    return mean - margin * np.sqrt(var / rollouts)


@jit
def set_models_nb(hs, me, params):
    """The mixture of mc seat ``me``: for each model with a prior weight above 0 (the
    first model alone if none has), the belief's and the rollouts' row pairs (its
    rollout strategy and that model of the opponent) and the normalised log prior."""
    models = model_rows_nb(hs)
    pairs = pairs_nb(hs)
    log_prior, _ = mixture_nb(hs)
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
        copy_row_nb(models[n_models], 0, params, me, P_MC_ROLLOUT)
        copy_row_nb(models[n_models], 1, params, me, start)
        copy_row_nb(pairs[n_models], me, params, me, P_MC_ROLLOUT)
        copy_row_nb(pairs[n_models], 1 - me, params, me, start)
        log_prior[n_models] = weight
        total += weight
        n_models += 1
    for k in range(n_models):
        log_prior[k] = np.log(log_prior[k] / total)
    hs[MC_N_MODELS] = n_models


@jit
def prepare_nb(hs, me, params, n_ev, rules, tab, rng):
    """Rows and belief for a choice of mc seat ``me``: returns ``(particles, unseen,
    key, rollouts)``; the rollout rows hold its rollout strategy and each model of the
    opponent."""
    set_models_nb(hs, me, params)
    n = min(max(int(params[me, P_MC_PARTICLES]), 1), MC_MAX_PARTICLES)
    key = stream_key_nb(rng[me], hs[ST_TURNS], MC_STREAM)
    unseen = beliefs_nb(hs, me, n_ev, n, rules, tab, params[me, P_MC_TEMPERATURE],
                        np.log(params[me, P_MC_WAIT]), int(params[me, P_MC_STAGES]),
                        int(params[me, P_MC_MOVES]), key)
    if params[me, P_MC_ORACLE] != 0:  # the diagnostic: every guess is the true hand
        hands = hs[MC_HANDS:MC_HANDS + n]
        for p in range(n):
            hands[p] = hs[ST_HAND + 1 - me]
    return n, unseen, key, int(params[me, P_MC_ROLLOUTS])


@jit
def mc_discard_nb(hs, me, n, unseen, exclude, key, rollouts, margin, may_knock, rules, tab,
                  rng, empty):
    """The mc seat's discard from 11 cards: gin or big gin at once, else rollouts over
    the rollout strategy's own choice and the ``CANDIDATES`` discards keeping the least
    deadwood, each with and without a knock where allowed (never a knock, gin included,
    unless ``may_knock``: the knock chart's wait branch); another choice than the
    rollout strategy's must gain ``margin`` standard errors. Applies it; returns
    ``(discard, action)``."""
    pair = pairs_nb(hs)[0]  # the mc seat's own row is the rollout strategy in every pair
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    dw, best, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, hs, True)
    if may_knock and all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return -1, apply_discard_nb(hs, me, -1, 0, True, True, rules)
    if may_knock and dw == 0:
        return best, apply_discard_nb(hs, me, best, 0, True, False, rules)
    choice, choice_kept, choice_knock, _ = choose_discard_nb(pair, me, hand, forbidden, hs,
                                                             rules, tab, rng)
    if choice_knock and not may_knock:
        choice, choice_kept = discard_without_knock_nb(pair, me, hand, forbidden, dw, best, hs,
                                                       tab, rng)
        choice_knock = False
    # the candidates below read the per-card table; the rollout strategy's choice may
    # have reused the meld scratch (a random discard's deadwood), so fill it again
    best_discard_nb(hand, forbidden, 0, tab, hs, True)
    option_value_nb(hs, me, np.int64(OPT_DISCARD), choice, choice_knock, choice_kept, n, unseen,
                    exclude, rollouts, key, rules, tab, rng, empty, np.int64(0))
    default = choice
    default_knock = choice_knock
    best_gain = 0.0
    tried = 0
    while tried < CANDIDATES:
        c = np.int64(-1)
        low = np.int64(NO_DISCARD)
        for x in range(52):
            if (hand >> x) & 1 and (forbidden >> x) & 1 == 0 and hs[W_DISCARD + x] < low:
                low = hs[W_DISCARD + x]
                c = x
        if c < 0:
            break
        hs[W_DISCARD + c] = NO_DISCARD
        tried += 1
        for knock in range(2):
            if knock == 1 and (low > hs[ST_KNOCK_LIMIT] or not may_knock):
                break
            if c == default and (knock == 1) == default_knock:
                continue
            option_value_nb(hs, me, np.int64(OPT_DISCARD), c, knock == 1, low, n, unseen,
                            exclude, rollouts, key, rules, tab, rng, empty, np.int64(1))
            gain = gain_nb(hs, rollouts, margin)
            if gain > best_gain:
                best_gain = gain
                choice = c
                choice_knock = knock == 1
                choice_kept = low
    return choice, apply_discard_nb(hs, me, choice, choice_kept, choice_knock, False, rules)


@jit
def mc_draw_choice_nb(hs, me, pile_allowed, params, n_ev, rules, tab, rng, empty):
    """The mc seat's draw by rollouts, not applied: ``(take, particles, unseen, key,
    rollouts)``; the belief stays in the scratch for the discard (:func:`mc_discard_nb`).
    An mc agent asks this from its own view of the hand (``simulator/agents.py``, ``McAgent``)."""
    n, unseen, key, rollouts = prepare_nb(hs, me, params, n_ev, rules, tab, rng)
    margin = params[me, P_MC_MARGIN]
    pair = pairs_nb(hs)[0]
    take = False
    if pile_allowed and hs[ST_PILE_LEN] > 0:
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        take = pile_decision_nb(pair, me, hs[ST_HAND + me], top, hs, rules, tab, rng)[0]
        for slot in range(2):
            kind = OPT_TAKE if take == (slot == 0) else OPT_STOCK
            option_value_nb(hs, me, np.int64(kind), np.int64(-1), np.bool_(False), np.int64(0),
                            n, unseen, np.int64(0), rollouts, key, rules, tab, rng, empty,
                            np.int64(slot))
        if gain_nb(hs, rollouts, margin) > 0:
            take = not take
    return take, n, unseen, key, rollouts


@jit
def mc_draw_nb(hs, me, pile_allowed, params, n_ev, rules, tab, rng, empty):
    """The mc seat's draw by rollouts (:func:`mc_draw_choice_nb`), applied, its event
    recorded. Returns ``(drawn, events, particles, unseen, key, rollouts, exclude)``,
    ``exclude`` being the card drawn from the stock (no guess of the opponent's hand may
    hold it)."""
    events = hs[MC_EVENTS:MC_REL].reshape(MAX_EVENTS, 4)
    flag = 1 if pile_allowed and hs[ST_PILE_LEN] > 0 else 0
    take, n, unseen, key, rollouts = mc_draw_choice_nb(hs, me, pile_allowed, params, n_ev,
                                                       rules, tab, rng, empty)
    hs[ST_PLANNED] = 0
    apply_draw_nb(hs, me, take)
    card = hs[ST_DRAWN]
    if take:
        return card, add_event_nb(events, n_ev, me, EV_TAKE, card, 1), n, unseen, key, rollouts, 0
    n_ev = add_event_nb(events, n_ev, me, EV_STOCK, -1, flag)
    return card, n_ev, n, unseen, key, rollouts, 1 << card


@jit
def discard_event_nb(hs, seat, discard, n_ev):
    """Record ``seat``'s discard (none after big gin); returns the new number of events."""
    if discard < 0:
        return n_ev
    events = hs[MC_EVENTS:MC_REL].reshape(MAX_EVENTS, 4)
    return add_event_nb(events, n_ev, seat, EV_DISCARD, discard,
                        from_pile_nb(events, n_ev, seat, discard))


@jit
def mc_turn_nb(hs, me, pile_allowed, params, n_ev, rules, tab, rng, empty):
    """The mc seat's turn: draw and discard (or knock) by rollouts. Returns ``(drawn,
    discard, action, events)``."""
    card, n_ev, n, unseen, key, rollouts, exclude = mc_draw_nb(hs, me, pile_allowed, params,
                                                               n_ev, rules, tab, rng, empty)
    discard, action = mc_discard_nb(hs, me, n, unseen, exclude, key, rollouts,
                                    params[me, P_MC_MARGIN], np.bool_(True), rules, tab, rng,
                                    empty)
    return card, discard, action, discard_event_nb(hs, me, discard, n_ev)


@jit
def plain_draw_nb(hs, seat, pile_allowed, prow, n_ev, rules, tab, rng):
    """A plain seat's draw through the phases, its event kept for the mc seat. Returns
    ``(drawn, events)``."""
    events = hs[MC_EVENTS:MC_REL].reshape(MAX_EVENTS, 4)
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1] if pile_allowed and hs[ST_PILE_LEN] > 0 else -1
    drawn = draw_nb(hs, seat, pile_allowed, prow, rules, tab, rng)
    if hs[ST_SOURCE] == SOURCE_PILE:
        return drawn, add_event_nb(events, n_ev, seat, EV_TAKE, drawn, 1)
    return drawn, add_event_nb(events, n_ev, seat, EV_STOCK, -1, 1 if top >= 0 else 0)


@jit
def plain_turn_nb(hs, seat, pile_allowed, prow, n_ev, rules, tab, rng):
    """A plain seat's turn through the phases, its events kept for the mc seat."""
    drawn, n_ev = plain_draw_nb(hs, seat, pile_allowed, prow, n_ev, rules, tab, rng)
    discard, action = discard_nb(hs, seat, prow, rules, tab, rng)
    return drawn, discard, action, discard_event_nb(hs, seat, discard, n_ev)


@jit
def turn_nb(hs, seat, pile_allowed, params, n_ev, rules, tab, rng, trace):
    """One turn of either kind of seat, traced; returns the new number of events."""
    if is_mc_nb(params, seat):
        drawn, discard, action, n_ev = mc_turn_nb(hs, seat, pile_allowed, params, n_ev, rules,
                                                  tab, rng, trace[:0])
    else:
        drawn, discard, action, n_ev = plain_turn_nb(hs, seat, pile_allowed, rows_nb(hs, 0),
                                                     n_ev, rules, tab, rng)
    trace_turn_nb(trace, hs, seat, hs[ST_SOURCE], drawn, discard, action)
    return n_ev


@jit
def offer_nb(hs, seat, n_ev, rules, tab, rng, trace):
    """The upcard offered to ``seat``: taken (and a discard) by its strategy, an mc seat
    by its rollout strategy. Deciding the offer by rollouts too measured worse on the same
    2,000 duplicate deals against memory2:knock=0 (-0.73 against -0.20 points a hand),
    the rollouts at the offer seeing no history to sample from. Returns
    ``(taken, events)``."""
    events = hs[MC_EVENTS:MC_REL].reshape(MAX_EVENTS, 4)
    up = hs[ST_UPCARD]
    take, discard, dw, knock, big = pile_decision_nb(rows_nb(hs, 0), seat, hs[ST_HAND + seat],
                                                     up, hs, rules, tab, rng)
    apply_offer_nb(hs, seat, take)
    if not take:
        return False, add_event_nb(events, n_ev, seat, EV_PASS, up, 1)
    n_ev = add_event_nb(events, n_ev, seat, EV_TAKE, up, 1)
    action = apply_discard_nb(hs, seat, discard, dw, knock, big, rules)
    if discard >= 0:
        n_ev = add_event_nb(events, n_ev, seat, EV_DISCARD, discard, 0)
    trace_turn_nb(trace, hs, seat, SOURCE_PILE, up, discard, action)
    return True, n_ev


@jit
def mc_first_turn_nb(hs, params, rules, tab, rng, trace):
    """:func:`first_turn_nb` with mc seats: the upcard offers (non-dealer, then dealer;
    if both pass the non-dealer draws from the stock), or the eleven-card deal's first
    discard. Returns ``(seat to move, events)``."""
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)
    dealer = hs[ST_DEALER]
    nondealer = 1 - dealer
    if rules[R_DEAL] == DEAL_ELEVEN:
        hs[ST_FORBIDDEN] = 0
        hs[ST_PLANNED] = 0
        if is_mc_nb(params, nondealer):
            n, unseen, key, rollouts = prepare_nb(hs, nondealer, params, np.int64(0), rules,
                                                  tab, rng)
            discard, action = mc_discard_nb(hs, nondealer, n, unseen, np.int64(0), key,
                                            rollouts, params[nondealer, P_MC_MARGIN],
                                            np.bool_(True), rules, tab, rng, trace[:0])
        else:
            discard, action = discard_nb(hs, nondealer, rows_nb(hs, 0), rules, tab, rng)
        n_ev = discard_event_nb(hs, nondealer, discard, np.int64(0))
        trace_turn_nb(trace, hs, nondealer, SOURCE_DEAL, -1, discard, action)
        return dealer, n_ev
    n_ev = np.int64(0)
    for offer in range(2):
        s = nondealer if offer == 0 else dealer
        taken, n_ev = offer_nb(hs, s, n_ev, rules, tab, rng, trace)
        if taken:
            return 1 - s, n_ev
    n_ev = turn_nb(hs, nondealer, np.bool_(False), params, n_ev, rules, tab, rng, trace)
    return dealer, n_ev


@jit
def mc_play_on_nb(hs, seat, params, n_ev, rules, tab, rng, trace):
    """:func:`play_on_nb` with mc seats: from ``seat`` to move (``n_ev`` events so far)
    to the end of the hand, the 50th-card rule included."""
    while hs[ST_ENDING] < 0:
        n_ev = turn_nb(hs, seat, np.bool_(True), params, n_ev, rules, tab, rng, trace)
        seat = 1 - seat
    if hs[ST_PHASE] == PH_LAST_DISCARD:
        last_discard_turn_nb(hs, seat, rows_nb(hs, 0), rules, tab, trace)


@jit
def phase_rows_nb(hs, params):
    """The phases' rows: an mc seat plays its rollout strategy where the phases decide
    for it (the 50th-card rule)."""
    prow = rows_nb(hs, 0)
    for s in range(2):
        copy_row_nb(prow, s, params, s, P_MC_ROLLOUT if is_mc_nb(params, s) else 0)


@jit
def mc_play_hand_nb(hs, dealer, params, rules, tab, rng, trace, hand_id):
    """:func:`play_hand_nb` for a hand with an mc seat; ``hs`` must hold ``MC_END``
    slots."""
    phase_rows_nb(hs, params)
    deal_nb(hs, dealer, rules, hand_id)
    seat, n_ev = mc_first_turn_nb(hs, params, rules, tab, rng, trace)
    mc_play_on_nb(hs, seat, params, n_ev, rules, tab, rng, trace)

