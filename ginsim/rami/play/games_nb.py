"""Rami games as a kernel: deals add up until a total reaches the target; the lowest
total wins, and a tie for the lowest plays one more deal.

Deal ``k`` of game ``g`` takes its cards from key ``(seed, g, 1 + k)`` and is started
by seat ``(g + k) % players``, so a game's deals never depend on the chunk that plays it.
"""

from ...game._jit import jit
from ...game.rng_nb import RAMI_GAME_DEALS, rotating_dealer_nb, stream_key_nb
from ..game.rules import R_TARGET_PER_OPP
from .deal_nb import O_DRY, O_WINNER, PS_CHARGE, play_deal_nb

MAX_GAME_DEALS = 400  # a safety net: blocked deals can charge nobody much, so cap a game


@jit
def play_rami_games_nb(seed, start, stop, setup, work, out):
    """Games ``start .. stop-1`` (a :data:`~ginsim.rami.play.deal_nb.DealSetup` and
    :data:`~ginsim.rami.play.deal_nb.DealWork`): one row per game and player to ``out``
    (:data:`~ginsim.rami.play.records.RAMI_GAME_DTYPE`); ``work.totals`` keeps each player's
    running total and dry ramis."""
    players = setup.params.shape[0]
    totals = work.totals
    target = setup.rules[R_TARGET_PER_OPP] * (players - 1)
    no_trace = work.table[:0]  # a zero-row array: no turn of a game is traced
    for g in range(start, stop):
        for q in range(players):
            totals[q, 0] = 0
            totals[q, 1] = 0
        deals = 0
        low = 0
        while deals < MAX_GAME_DEALS:
            key = stream_key_nb(seed, g, RAMI_GAME_DEALS + deals)
            play_deal_nb(key, rotating_dealer_nb(g + deals, players), setup, work, no_trace)
            deals += 1
            low, over = _add_deal_nb(totals, work, players, target)
            if over:
                break
        for q in range(players):
            k = (g - start) * players + q
            out[k].game = g
            out[k].player = q
            out[k].players = players
            out[k].total = totals[q, 0]
            out[k].deals = deals
            out[k].won = totals[q, 0] == low
            out[k].dry_rami = totals[q, 1]


@jit
def _add_deal_nb(totals, work, players, target):
    """Add the deal's charges and dry rami to the totals; returns (the lowest total,
    whether the game is over: a total reached the target and one player is lowest)."""
    for q in range(players):
        totals[q, 0] += work.pstate[q, PS_CHARGE]
    if work.outcome[O_DRY] != 0:
        totals[work.outcome[O_WINNER], 1] += 1
    top = totals[0, 0]
    low = totals[0, 0]
    for q in range(1, players):
        top = max(top, totals[q, 0])
        low = min(low, totals[q, 0])
    tied = 0
    for q in range(players):
        tied += 1 if totals[q, 0] == low else 0
    return low, top >= target and tied == 1
