"""The mc seat's rollouts: each option of a choice played out in the same worlds (a
guess of the opponent's hand and a shuffle of the other unseen cards as the stock,
laid on a copy of the position in the board ``mem.branch``) by the rollout strategies.

The copy never sees the real hidden cards: the opponent's hand and the stock are
overwritten before any option is played.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import popcount_nb
from ...game.rng_nb import ROLLOUT_STREAM, below_nb, stream_key_nb
from ...game.state import (
    A_DISCARD,
    A_KNOCK,
    A_PILE,
    A_STOCK,
)
from ..machine.board_nb import drop_plan_nb
from ..machine.deal_nb import copy_position_nb, lay_guess_nb, seat_streams_nb
from ..machine.showdown_nb import net_points_nb, showdown_nb
from ..machine.step_nb import replay_step_nb
from ..play.drive_nb import (
    TO_THE_END,
    decide_discard_nb,
    drive_nb,
    pass_upcard_nb,
    play_step_nb,
)
from .mc_guesses_nb import world_model_nb

GOLDEN_FRACTION = 0.6180339887498949  # spreads the model draws of successive worlds

OPT_DISCARD = 0
OPT_TAKE = 1
OPT_STOCK = 2
OPT_PASS = 3  # decline the upcard offer

#: One option of a choice: its ``OPT_*`` kind; for a discard the card, whether it
#: knocks and the deadwood it keeps; the value buffer (``mem.values[slot]``) its worlds'
#: values go to (0: the rollout strategy's own choice, 1: another).
Option = namedtuple("Option", ("kind", "card", "knock", "kept", "slot"))


@jit_inline
def option_nb(kind, card, knock, kept, slot):
    """An :class:`Option` of fixed field types (numba compiles a callee once per
    argument type, and the rollouts are large)."""
    return Option(np.int64(kind), np.int64(card), np.bool_(knock), np.int64(kept),
                  np.int64(slot))


@jit
def world_nb(hs, rng, mem, me, opp_hand, unseen, key, w):
    """Lay out world ``w`` on ``mem.branch.hs``: the position of ``hs``, the opponent
    holding ``opp_hand`` and the stock a shuffle of the other unseen cards."""
    branch = mem.branch.hs
    branch_rng = mem.rng
    order = mem.order
    copy_position_nb(hs, branch, rng, branch_rng)
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
    branch_rng[2] = stream_key_nb(key, w, ROLLOUT_STREAM)
    for i in range(k - 1, 0, -1):
        j = below_nb(branch_rng, 2, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    lay_guess_nb(branch, 1 - me, opp_hand, order, k)
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
def pass_on_nb(board, me, pair, rules, tab, branch_rng, empty):
    """In a world (on ``board``): ``me`` declines the upcard; the rollout strategies
    (``pair``) play on to the end of the hand."""
    pass_upcard_nb(board, me, rules)
    drive_nb(board, np.int64(TO_THE_END), np.int64(-1), pair, rules, tab, branch_rng, empty)


@jit
def world_hand_nb(search, hand, r, p):
    """Guess ``p`` as the opponent's hand in world ``r``: a card the mc seat drew from
    the stock (``search.exclude``) swapped for another unseen card."""
    exclude = search.exclude
    if (hand & exclude) == 0:
        return hand
    free = search.unseen & ~hand & ~exclude
    hand &= ~exclude
    k = (r * 7 + p) % popcount_nb(free)
    for c in range(52):
        if (free >> c) & 1:
            if k == 0:
                return hand | (1 << c)
            k -= 1
    return hand


@jit
def play_out_option_nb(board, me, option, pair, rules, tab, branch_rng, empty):
    """Play ``option`` of ``me`` in the world on ``board`` (its first move in the
    machine's replay mode: the world's position is laid, not dealt), then both rollout
    strategies (``pair``) to the end of the hand, scored."""
    branch = board.hs
    if option.kind == OPT_PASS:
        pass_on_nb(board, me, pair, rules, tab, branch_rng, empty)
    else:
        if option.kind == OPT_DISCARD:
            replay_step_nb(branch, me, A_KNOCK if option.knock else A_DISCARD, option.card,
                           option.kept, rules)
        else:
            replay_step_nb(branch, me, A_PILE if option.kind == OPT_TAKE else A_STOCK, -1, 0,
                           rules)
            drop_plan_nb(branch)
            kind, card, kept = decide_discard_nb(pair, me, board, rules, tab, branch_rng)
            play_step_nb(board, kind, card, kept, rules, empty)
        drive_nb(board, np.int64(TO_THE_END), np.int64(-1), pair, rules, tab, branch_rng, empty)
    showdown_nb(board, rules, tab)


@jit_inline
def world_value_nb(mem, me, points, game):
    """What a world's hand result is worth to ``me``: its net ``points``, or with
    ``game`` the chance of winning the game from the score they leave
    (``mem.win_table`` from ``mem.scores``)."""
    if game == 0:
        return float(points)
    table = mem.win_table
    target = table.shape[0]
    own = min(mem.scores[1 + me], target - 1)
    other = min(mem.scores[2 - me], target - 1)
    if points > 0:
        own += points
        return 1.0 if own >= target else table[own, other]
    other -= points
    return 0.0 if other >= target else table[own, other]


@jit
def option_value_nb(hs, me, option, search, rules, tab, rng, mem):
    """The worth (:func:`world_value_nb`: net points, ``me`` minus the opponent, or the
    chance of winning the game) of ``option`` in each of the search's
    worlds, into ``mem.values[option.slot]``: discard a card (knocking or not), take the
    pile card, draw from the stock (each then discarding as the rollout strategy does)
    or pass the upcard; then both rollout strategies play on. Worlds are the same for
    every option, and so is the opponent's model in each (drawn from its guess's
    posterior over the models). Returns the mean."""
    values = mem.values[option.slot]
    rollouts = search.rollouts
    w = mem.weights[:search.particles]
    total = 0.0
    for r in range(rollouts):
        p = pick_world_nb(w, (r + 0.5) / rollouts)
        pair = mem.pairs[world_model_nb(mem, p, (r * GOLDEN_FRACTION + 0.5 / rollouts) % 1.0)]
        opp_hand = world_hand_nb(search, mem.hands[p], r, p)
        world_nb(hs, rng, mem, me, opp_hand, search.unseen & ~search.exclude, search.key, r)
        play_out_option_nb(mem.branch, me, option, pair, rules, tab, mem.rng, mem.empty_trace)
        values[r] = world_value_nb(mem, me, net_points_nb(mem.branch.hs, me), search.game)
        total += values[r]
    return total / rollouts


@jit
def gain_nb(values, rollouts, margin):
    """The mean gain of ``values[1]`` over ``values[0]`` (the same worlds), less
    ``margin`` standard errors of that paired difference."""
    total = 0.0
    squares = 0.0
    for r in range(rollouts):
        d = values[1, r] - values[0, r]
        total += d
        squares += d * d
    mean = total / rollouts
    if rollouts < 2:
        return mean
    var = max(squares / rollouts - mean * mean, 0.0) * rollouts / (rollouts - 1)
    return mean - margin * np.sqrt(var / rollouts)
