"""The guesses behind an mc seat's choice: the opponent's hand sampled from the public
history (:func:`~ginsim.simulator.belief.sample_nb.smc_beliefs_nb`) under the seat's mixture
of opponent models, into the seat's :class:`~ginsim.simulator.machine.buffers.McMemory`.
"""

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import popcount_nb
from ...game.rng_nb import MC_STREAM, stream_key_nb
from ...game.state import (
    FULL_DECK,
    ST_DEALER,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PILE_MASK,
    ST_TAKEN,
    ST_TURNS,
    ST_UPCARD,
)
from ...strategies.params import (
    MC_MAX_PARTICLES,
    P_MC_CARRY,
    P_MC_GAME,
    P_MC_LEARN,
    P_MC_MARGIN,
    P_MC_MOVES,
    P_MC_ORACLE,
    P_MC_PARTICLES,
    P_MC_ROLLOUTS,
    P_MC_SEARCHED,
    P_MC_STAGES,
    P_MC_TEMPERATURE,
    P_MC_WAIT,
)
from ..belief.belief_types import Hidden, Likelihood, Particles, PublicHistory, Replay
from ..belief.carry_nb import carry_beliefs_nb
from ..belief.sample_nb import smc_beliefs_nb
from ..machine.buffers import SOURCE_WIDTH, Search
from .mc_memory_nb import note_evidence_nb, set_models_nb


@jit
def relative_events_nb(mem, me):
    """The events so far with seats relative to ``me`` (0 = itself), in ``mem.rel``;
    returns their number."""
    n_ev = mem.n_events[0]
    for i in range(n_ev):
        mem.rel[i, 0] = 0 if mem.events[i, 0] == me else 1
        for j in range(1, 4):
            mem.rel[i, j] = mem.events[i, j]
    return n_ev


@jit_inline
def beliefs_nb(hs, me, params, n, key, rules, tab, mem):
    """Sample ``n`` guesses of the opponent's hand now from the events so far under the
    mixture of models set by :func:`set_models_nb` (weights in ``mem.weights``, each
    guess's cumulative model weights in ``mem.resp``); returns the unseen mask. The
    guesses of this seat's last choice in the hand are carried forward
    (:func:`~ginsim.simulator.belief.carry_nb.carry_beliefs_nb`) unless the seat's
    ``carry`` is 0 or they cannot carry the new moves."""
    n_ev = relative_events_nb(mem, me)
    held = hs[ST_TAKEN + 1 - me]
    unseen = FULL_DECK & ~hs[ST_HAND + me] & ~hs[ST_PILE_MASK] & ~held
    k = 0
    for c in range(52):
        if (unseen >> c) & 1:
            mem.unseen_cards[k] = c
            k += 1
    n_models = mem.n_models[0]
    width = SOURCE_WIDTH
    source = mem.source[:width * n].reshape(n, width)
    history = PublicHistory(mem.rel[:n_ev], np.int64(hs[ST_DEALER] != me), hs[ST_UPCARD],
                      hs[ST_KNOCK_LIMIT])
    hidden = Hidden(mem.unseen_cards[:k], 10 - popcount_nb(held), held)
    like = Likelihood(mem.model_rows[:n_models], mem.log_prior[:n_models], mem.lk[:n_models],
                      params[me, P_MC_TEMPERATURE], np.log(params[me, P_MC_WAIT]), rules, tab)
    parts = Particles(mem.hands[:n], mem.logl[:n], mem.base[:n], mem.weights[:n], source,
                      mem.tmp_hands[:n], mem.tmp_logl[:n],
                      mem.tmp_source[:width * n].reshape(n, width))
    work = Replay(mem.ev_card, mem.replay, mem.rng)
    moves = int(params[me, P_MC_MOVES])
    carried = mem.carried
    ess = 0.0
    if carried[0] == me + 1 and carried[2] == n and carried[1] <= n_ev:
        ess = carry_beliefs_nb(key, history, hidden, like, moves, carried[1], parts, work)
    if ess == 0.0:
        smc_beliefs_nb(key, history, hidden, like, moves, int(params[me, P_MC_STAGES]), parts,
                       work)
    keep = params[me, P_MC_CARRY] != 0 and params[me, P_MC_ORACLE] == 0
    carried[0] = me + 1 if keep else 0
    carried[1] = n_ev
    carried[2] = n
    responsibilities_nb(source.view(np.float64), n, n_models, mem.log_prior, mem.resp)
    return unseen


@jit
def responsibilities_nb(source, n, n_models, log_prior, resp):
    """Each guess's cumulative posterior weights of the models, ``resp[p, k]`` (prior
    times the model's likelihood, normalised; read from ``source[p, 52:]``)."""
    for p in range(n):
        top = -np.inf
        for k in range(n_models):
            top = max(top, log_prior[k] + source[p, 52 + k])
        total = 0.0
        for k in range(n_models):
            x = np.exp(log_prior[k] + source[p, 52 + k] - top) if top > -np.inf else 1.0
            resp[p, k] = x
            total += x
        c = 0.0
        for k in range(n_models):
            c += resp[p, k] / total
            resp[p, k] = c


@jit
def world_model_nb(mem, p, u):
    """The opponent model of a world built on guess ``p``: drawn at ``u`` in [0, 1) from
    the guess's posterior over the models."""
    n_models = mem.n_models[0]
    for k in range(n_models - 1):
        if u < mem.resp[p, k]:
            return k
    return n_models - 1


@jit
def prepare_nb(hs, me, params, rules, tab, rng, mem):
    """Rows and belief for a choice of mc seat ``me``: returns its :class:`Search`
    (nothing excluded yet); the rollout rows hold its rollout strategy and each model
    of the opponent."""
    set_models_nb(mem, me, params)
    n = min(max(int(params[me, P_MC_PARTICLES]), 1), MC_MAX_PARTICLES)
    key = stream_key_nb(rng[me], hs[ST_TURNS], MC_STREAM)
    unseen = beliefs_nb(hs, me, params, n, key, rules, tab, mem)
    if params[me, P_MC_ORACLE] != 0:  # the diagnostic: every guess is the true hand
        for p in range(n):
            mem.hands[p] = hs[ST_HAND + 1 - me]
    elif mem.session[0] == 1 and params[me, P_MC_LEARN] != 0:  # in a game: learn
        note_evidence_nb(mem, me, n)
    game = np.int64(1 if params[me, P_MC_GAME] != 0 and mem.scores[0] == 1 else 0)
    return Search(np.int64(n), unseen, key, np.int64(int(params[me, P_MC_ROLLOUTS])),
                  params[me, P_MC_MARGIN], np.int64(0), np.int64(int(params[me, P_MC_SEARCHED])),
                  game)

