"""Game schedulers (docs/rules.md §3, §7, §8.3, §8.4, §8.6, §8.7): sequences of two-player hands.

Contract as in :mod:`ginsim.simulator.hand_nb`. Every hand is played by
:func:`play_and_record_nb`, the same engine as single hands; these kernels only choose
who plays and deals next and when a sequence is over. Hand ``h`` of game ``g`` draws
its deck from ``(key(seed, g), h)``, so games are independent of chunking.

Each kernel writes one record per hand into ``out`` and ``meta[row] = (game, hand,
player in seat a, player in seat b)``, stops at ``out``'s capacity before starting a
game it might not finish, and returns ``(rows written, next game to play)``.
"""

from ..game._jit import jit
from ..game.rng_nb import stream_key_nb
from .hand_nb import play_and_record_nb
from .phases_nb import shuffle_deck_nb

SYSTEM_STANDARD = 0
SYSTEM_HOLLYWOOD = 1
SYSTEM_MULTIMATCH = 2
NEXT_LOSER = 0
NEXT_WINNER = 1
NEXT_ALTERNATE = 2
GAME_STREAM = 7


@jit
def _play_one_nb(game_key, h, row, dealer, pair_params, rules, tab, out, trace, scratch, rng):
    """Deal hand ``h`` of a game and play it between the two rows of ``pair_params``;
    returns the winning seat, or -1 when nobody scored."""
    shuffle_deck_nb(scratch, rng, game_key, h)
    play_and_record_nb(h, row, dealer, game_key, pair_params, rules, tab, out, trace, scratch,
                       rng)
    a = out[row].points_a
    b = out[row].points_b
    if a > b:
        return 0
    if b > a:
        return 1
    return -1


@jit
def _next_dealer_nb(dealer, winner, mode):
    if winner < 0:
        return dealer  # a dead (or scoreless) hand is dealt again by the same dealer
    if mode == NEXT_LOSER:
        return 1 - winner
    if mode == NEXT_WINNER:
        return winner
    return 1 - dealer


@jit
def play_games_nb(seed, start, stop, params, rules, tab, system, target, next_dealer,
                  match_total, max_hands, out, meta, trace, scratch, rng):
    """Two-player games ``start .. stop-1`` under a scoring ``system``.

    Standard: until a running total reaches ``target``. Hollywood: three games at once
    (a player's n-th win goes to games 1..min(n, 3) still open) until all three are
    decided. Multi-match: matches to ``target`` (totals reset each match) until a
    player's match points (25 a hand won, 100 a match, 100 more for a shutout) reach
    ``match_total``. ``max_hands`` caps a game (a safety net; dead hands redeal).
    """
    row = 0
    g = start
    while g < stop and row + max_hands <= out.shape[0]:
        game_key = stream_key_nb(seed, g, GAME_STREAM)
        dealer = int(stream_key_nb(game_key, 0, 9) & 1)  # the cut
        totals_a = 0
        totals_b = 0
        # Hollywood columns: totals of games 1-3 for seat a and b, and which are decided.
        c1a = c1b = c2a = c2b = c3a = c3b = 0
        done1 = done2 = done3 = False
        wins_a = 0
        wins_b = 0
        match_pts_a = 0
        match_pts_b = 0
        match_wins_a = 0
        match_wins_b = 0
        for h in range(max_hands):
            winner = _play_one_nb(game_key, h, row, dealer, params, rules, tab, out, trace,
                                  scratch, rng)
            meta[row, 0] = g
            meta[row, 1] = h
            meta[row, 2] = 0
            meta[row, 3] = 1
            pts = out[row].points_a + out[row].points_b
            row += 1
            over = False
            if winner == 0:
                wins_a += 1
                match_wins_a += 1
                totals_a += pts
            elif winner == 1:
                wins_b += 1
                match_wins_b += 1
                totals_b += pts
            if system == SYSTEM_STANDARD:
                over = totals_a >= target or totals_b >= target
            elif system == SYSTEM_HOLLYWOOD:
                n = wins_a if winner == 0 else wins_b
                if winner >= 0 and not done1:
                    c1a += pts if winner == 0 else 0
                    c1b += pts if winner == 1 else 0
                    done1 = c1a >= target or c1b >= target
                if winner >= 0 and n >= 2 and not done2:
                    c2a += pts if winner == 0 else 0
                    c2b += pts if winner == 1 else 0
                    done2 = c2a >= target or c2b >= target
                if winner >= 0 and n >= 3 and not done3:
                    c3a += pts if winner == 0 else 0
                    c3b += pts if winner == 1 else 0
                    done3 = c3a >= target or c3b >= target
                over = done1 and done2 and done3
            else:
                if winner == 0:
                    match_pts_a += 25
                elif winner == 1:
                    match_pts_b += 25
                if totals_a >= target or totals_b >= target:
                    if totals_a >= target:
                        match_pts_a += 100 + (100 if match_wins_b == 0 else 0)
                    else:
                        match_pts_b += 100 + (100 if match_wins_a == 0 else 0)
                    totals_a = 0
                    totals_b = 0
                    match_wins_a = 0
                    match_wins_b = 0
                    over = match_pts_a >= match_total or match_pts_b >= match_total
            if over:
                break
            dealer = _next_dealer_nb(dealer, winner, next_dealer)
        g += 1
    return row, g


@jit
def _pair_rows_nb(params, x, y, pair):
    for j in range(params.shape[1]):
        pair[0, j] = params[x, j]
        pair[1, j] = params[y, j]


@jit
def play_three_nb(seed, start, stop, params, pair, rules, tab, target, max_hands, out, meta,
                  trace, scratch, rng):
    """Three-player games (§8.6): the dealer sits out, the loser of a hand deals the next,
    and the winner plays the previous dealer; a dead hand is dealt again. Player
    ``(dealer + 1) % 3`` of the first hand, and later the winner, sits in seat a (moves
    first). Until a player's total reaches ``target``."""
    row = 0
    g = start
    while g < stop and row + max_hands <= out.shape[0]:
        game_key = stream_key_nb(seed, g, GAME_STREAM)
        dealer = int(stream_key_nb(game_key, 0, 9) % 3)
        x = (dealer + 1) % 3
        y = (dealer + 2) % 3
        t0 = 0
        t1 = 0
        t2 = 0
        for h in range(max_hands):
            _pair_rows_nb(params, x, y, pair)
            # Seat b stands in the dealer's place of a two-player hand.
            winner = _play_one_nb(game_key, h, row, 1, pair, rules, tab, out, trace, scratch,
                                  rng)
            meta[row, 0] = g
            meta[row, 1] = h
            meta[row, 2] = x
            meta[row, 3] = y
            row += 1
            if winner < 0:
                continue
            won = x if winner == 0 else y
            lost = y if winner == 0 else x
            pts = out[row - 1].points_a + out[row - 1].points_b
            if won == 0:
                t0 += pts
            elif won == 1:
                t1 += pts
            else:
                t2 += pts
            if t0 >= target or t1 >= target or t2 >= target:
                break
            x, y = won, dealer
            dealer = lost
        g += 1
    return row, g


@jit
def play_teams_nb(seed, start, stop, params, pair, rules, tab, target, max_rounds, out, meta,
                  trace, scratch, rng):
    """Four players in two teams (§8.7): players 0, 1 against 2, 3; each round plays two
    hands with opponents rotating (0-2, 1-3, then 0-3, 1-2), seat a dealing on even
    rounds. A team that wins both hands scores both; otherwise the higher score scores
    the difference. Until a team reaches ``target`` (125)."""
    row = 0
    g = start
    while g < stop and row + 2 * max_rounds <= out.shape[0]:
        game_key = stream_key_nb(seed, g, GAME_STREAM)
        team_a = 0
        team_b = 0
        for r in range(max_rounds):
            pts_a = 0
            pts_b = 0
            wins_a = 0
            wins_b = 0
            for k in range(2):
                x = k
                y = 2 + (k if r % 2 == 0 else 1 - k)
                _pair_rows_nb(params, x, y, pair)
                winner = _play_one_nb(game_key, 2 * r + k, row, r % 2, pair, rules, tab, out,
                                      trace, scratch, rng)
                meta[row, 0] = g
                meta[row, 1] = 2 * r + k
                meta[row, 2] = x
                meta[row, 3] = y
                pts = out[row].points_a + out[row].points_b
                row += 1
                if winner == 0:
                    wins_a += 1
                    pts_a += pts
                elif winner == 1:
                    wins_b += 1
                    pts_b += pts
            if wins_a == 2:
                team_a += pts_a
            elif wins_b == 2:
                team_b += pts_b
            elif pts_a > pts_b:
                team_a += pts_a - pts_b
            elif pts_b > pts_a:
                team_b += pts_b - pts_a
            if team_a >= target or team_b >= target:
                break
        g += 1
    return row, g
