"""Game schedulers (docs/rules.md §3, §7, §8.3, §8.4, §8.6, §8.7): sequences of two-player hands.

Contract as in :mod:`ginsim.simulator.play.hand_nb`. Every hand is played by
:func:`play_and_record_nb`, the same engine as single hands; these kernels only choose
who plays and deals next and when a sequence is over. Hand ``h`` of game ``g`` draws
its deck from ``(key(seed, g), h)``, so games are independent of chunking.

Each kernel writes to its :class:`~ginsim.simulator.machine.buffers.GameBuffers` ``gbuf``: one
record per hand into ``out`` (``gbuf.hands.out``) and ``meta[row] = (game, hand,
player in seat a, player in seat b)``, enters each hand in game ``k``'s scoring state
``sides[k], games[k]`` (:mod:`ginsim.game.scoring.game_scoring_nb`, the one place that scores a
game and says when it is over), stops at ``out``'s or the states' capacity before
starting a game it might not finish, and returns ``(rows written, next game to play)``.
"""

from ...game._jit import jit
from ...game.rng_nb import stream_key_nb
from ...game.scoring.deal_order_nb import next_dealer_code_nb
from ...game.scoring.game_scoring_nb import (
    GR_NEXT_DEALER,
    GR_TARGET,
    S_POINTS,
    S_WINS,
    STANDARD,
    TEAMS,
    THREE,
    game_hand_nb,
    reset_game_nb,
)
from ...strategies.charts.score_grid_nb import distance_bucket_nb
from ...strategies.params import P_GRID
from ..machine.deal_nb import shuffle_deck_nb
from ..search.mc_memory_nb import new_game_memory_nb
from .hand_nb import play_and_record_nb

GAME_STREAM = 7
CUT_STREAM = 9


@jit
def game_key_nb(seed, g):
    """The stream key of game ``g``: hand ``h`` of the game deals deck ``h`` of it and
    seeds its seats from it (the kernels, the referee and the Table's game alike)."""
    return stream_key_nb(seed, g, GAME_STREAM)


@jit
def first_dealer_nb(seed, g):
    """Who deals the first hand of two-player game ``g``: the cut, a draw of the game's
    own stream (``next_dealer_nb`` then moves the deal)."""
    return int(stream_key_nb(game_key_nb(seed, g), 0, CUT_STREAM) & 1)


@jit
def _play_one_nb(game_key, g, h, row, dealer, x, y, pair_params, rules, tab, meta, buf):
    """Deal hand ``h`` of game ``g`` and play it between the two rows of ``pair_params``
    (players ``x`` and ``y``); returns the winning seat, or -1 when nobody scored."""
    shuffle_deck_nb(buf.board.hs, buf.rng, game_key, h)
    play_and_record_nb(h, row, dealer, game_key, pair_params, rules, tab, buf)
    out = buf.out
    meta[row, 0] = g
    meta[row, 1] = h
    meta[row, 2] = x
    meta[row, 3] = y
    a = out[row].points_a
    b = out[row].points_b
    if a > b:
        return 0
    if b > a:
        return 1
    return -1


@jit
def _score_nb(system, winner, row, out, sides, games, gr, match_total):
    """Enter the hand in ``out[row]`` in a game's scoring; True when the game is over."""
    rec = out[row]
    hand = (winner, rec.points_a + rec.points_b, rec.outcome, rec.multiplier)
    return game_hand_nb(system, sides, games, hand, gr, match_total)


@jit
def next_dealer_nb(dealer, winner, mode):
    """Who deals the next hand under ``mode`` (a ``NEXT_*`` code) after ``winner``."""
    if winner < 0:
        return dealer  # a dead (or scoreless) hand is dealt again by the same dealer
    return next_dealer_code_nb(dealer, winner, mode)


@jit
def game_scores_nb(mem, side_points, system, gr):
    """Tell an mc seat the game's score before a hand (``mem.scores``): known under
    standard scoring when its ``win_table`` is made for the game's target."""
    mem.scores[0] = 1 if system == STANDARD and mem.win_table.shape[0] == gr[GR_TARGET] else 0
    mem.scores[1] = side_points[0, 0, S_POINTS]
    mem.scores[2] = side_points[0, 1, S_POINTS]


@jit
def knock_by_score_nb(params, score_knock, side_points, target):
    """Before a hand: each seat that knocks by the score (``score_knock = (grids,
    edges)``: ``grids[seat, i, j]``, the knock grid of the seat's distance-to-target
    bucket ``i`` and the opponent's ``j``; a first cell below 0: the seat does not) gets
    the grid of the score now in its ``grid`` slots (``params`` is the kernel's own copy)."""
    grids, edges = score_knock
    for s in range(2):
        if grids[s, 0, 0, 0] < 0.0:
            continue
        i = distance_bucket_nb(target - side_points[0, s, S_POINTS], edges)
        j = distance_bucket_nb(target - side_points[0, 1 - s, S_POINTS], edges)
        for c in range(grids.shape[3]):
            params[s, P_GRID + c] = grids[s, i, j, c]


@jit
def start_scores_nb(sides, start):
    """Set a game's points to ``start`` (game row 0); a side that has points has won a
    hand, so it cannot be shut out (boxes count from here)."""
    for s in range(2):
        if start[s] > 0:
            sides[0, s, S_POINTS] = start[s]
            sides[0, s, S_WINS] = 1


@jit
def _room_nb(g, start, stop, row, rows_per_game, out, sides):
    """Whether game ``g`` is to be played and fits in ``out`` and the state arrays."""
    return g < stop and g - start < sides.shape[0] and row + rows_per_game <= out.shape[0]


@jit
def play_games_nb(seed, start, stop, params, score_knock, schedule, gbuf):
    """Two-player games ``start .. stop-1`` under the scoring ``schedule.system``
    (standard, Hollywood or multi-match; a :class:`~ginsim.simulator.machine.buffers.Schedule`);
    the dealer of the first hand is cut, later ones follow the rules' ``next_dealer``.
    A standard game starts from ``schedule.start`` points. A seat that knocks by the
    score (``score_knock``, see :func:`knock_by_score_nb`) gets its grid before each hand
    of a standard game.
    ``schedule.max_hands`` caps a game (a safety net; dead hands redeal)."""
    rules, tab, gr, max_hands = schedule.rules, schedule.tab, schedule.gr, schedule.max_hands
    meta, sides, games, buf = gbuf.meta, gbuf.sides, gbuf.games, gbuf.hands
    row = 0
    g = start
    out = buf.out
    while _room_nb(g, start, stop, row, max_hands, out, sides):
        k = g - start
        reset_game_nb(sides[k], games[k])
        start_scores_nb(sides[k], schedule.start)
        new_game_memory_nb(buf.mem)  # an mc seat learns its opponent anew in each game
        game_key = game_key_nb(seed, g)
        dealer = first_dealer_nb(seed, g)
        for h in range(max_hands):
            game_scores_nb(buf.mem, sides[k], schedule.system, gr)
            if schedule.system == STANDARD:
                knock_by_score_nb(params, score_knock, sides[k], gr[GR_TARGET])
            winner = _play_one_nb(game_key, g, h, row, dealer, 0, 1, params, rules, tab, meta,
                                  buf)
            row += 1
            if _score_nb(schedule.system, winner, row - 1, out, sides[k], games[k], gr,
                         schedule.match_total):
                break
            dealer = next_dealer_nb(dealer, winner, gr[GR_NEXT_DEALER])
        g += 1
    return row, g


@jit
def _pair_rows_nb(params, x, y, pair):
    for j in range(params.shape[1]):
        pair[0, j] = params[x, j]
        pair[1, j] = params[y, j]


@jit
def play_three_nb(seed, start, stop, params, pair, schedule, gbuf):
    """Three-player games (§8.6): the dealer sits out, the loser of a hand deals the next,
    and the winner plays the previous dealer; a dead hand is dealt again. Player
    ``(dealer + 1) % 3`` of the first hand, and later the winner, sits in seat a (moves
    first)."""
    rules, tab, gr, max_hands = schedule.rules, schedule.tab, schedule.gr, schedule.max_hands
    meta, sides, games, buf = gbuf.meta, gbuf.sides, gbuf.games, gbuf.hands
    row = 0
    g = start
    out = buf.out
    while _room_nb(g, start, stop, row, max_hands, out, sides):
        k = g - start
        reset_game_nb(sides[k], games[k])
        game_key = game_key_nb(seed, g)
        dealer = int(stream_key_nb(game_key, 0, CUT_STREAM) % 3)
        x = (dealer + 1) % 3
        y = (dealer + 2) % 3
        for h in range(max_hands):
            _pair_rows_nb(params, x, y, pair)
            # Seat b stands in the dealer's place of a two-player hand.
            seat = _play_one_nb(game_key, g, h, row, 1, x, y, pair, rules, tab, meta, buf)
            won = -1 if seat < 0 else (x if seat == 0 else y)
            row += 1
            if _score_nb(THREE, won, row - 1, out, sides[k], games[k], gr, 0):
                break
            if won >= 0:
                x, y, dealer = won, dealer, (y if seat == 0 else x)
        g += 1
    return row, g


@jit
def play_teams_nb(seed, start, stop, params, pair, schedule, gbuf):
    """Four players in two teams (§8.7): players 0, 1 against 2, 3; each round plays two
    hands with opponents rotating (0-2, 1-3, then 0-3, 1-2), seat a (team 0) dealing on
    even rounds, until a team reaches the rules' team target."""
    rules, tab, gr, max_rounds = schedule.rules, schedule.tab, schedule.gr, schedule.max_hands
    meta, sides, games, buf = gbuf.meta, gbuf.sides, gbuf.games, gbuf.hands
    row = 0
    g = start
    out = buf.out
    while _room_nb(g, start, stop, row, 2 * max_rounds, out, sides):
        k = g - start
        reset_game_nb(sides[k], games[k])
        game_key = game_key_nb(seed, g)
        for h in range(2 * max_rounds):
            r = h // 2
            x = h % 2
            y = 2 + (x if r % 2 == 0 else 1 - x)
            _pair_rows_nb(params, x, y, pair)
            team = _play_one_nb(game_key, g, h, row, r % 2, x, y, pair, rules, tab, meta, buf)
            row += 1
            if _score_nb(TEAMS, team, row - 1, out, sides[k], games[k], gr, 0):
                break
        g += 1
    return row, g
