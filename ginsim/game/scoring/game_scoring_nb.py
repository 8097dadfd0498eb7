"""Scoring a game (docs/rules.md §7, §8.3, §8.4, §8.6, §8.7): hand results in, game totals out.

One hand at a time, so the schedulers that play games and the Python scorers of
hand-made sequences run the same code. A game's running state is two int64 arrays:

- ``sides[row, side, S_*]``: rows 0..2 are games (Hollywood's three columns; every other
  system uses row 0), row ``SESSION`` counts across them (hands won in the session,
  multi-match points); sides 0..2 (two players use 0 and 1).
- ``games[row, G_*]``: per game its winner (-1 while open), the hands played when it was
  decided and whether it was a shutout; the ``SESSION`` row counts hands and matches.

The numbers come from :func:`ginsim.game.scoring.game_scoring.pack_game_rules` (``GR_*``).
"""

from .._jit import jit
from ..rules import GAME_FIELDS, SHUTOUT_BONUS, SHUTOUT_DOUBLE
from .hand_scoring_nb import OUT_BIG_GIN, OUT_GIN, OUT_UNDERCUT

STANDARD = 0
HOLLYWOOD = 1
MULTIMATCH = 2
THREE = 3
TEAMS = 4

# The packed game rules.
GR_TARGET = GAME_FIELDS.index("target")
GR_GAME_BONUS = GAME_FIELDS.index("game_bonus")
GR_BOX_BONUS = GAME_FIELDS.index("box_bonus")
GR_SHUTOUT = GAME_FIELDS.index("shutout")  # index into rules.SHUTOUT_MODES
GR_SHUTOUT_BONUS = GAME_FIELDS.index("shutout_bonus")
GR_OKLAHOMA_BOXES = GAME_FIELDS.index("oklahoma_boxes")
GR_NEXT_DEALER = GAME_FIELDS.index("next_dealer")  # index into rules.NEXT_DEALER_MODES
GR_TEAM_TARGET = GAME_FIELDS.index("team_target")
GR_MATCH_HAND = GAME_FIELDS.index("match_hand_points")
GR_MATCH_BONUS = GAME_FIELDS.index("match_bonus")
GR_MATCH_SHUTOUT = GAME_FIELDS.index("match_shutout_bonus")
GR_SIZE = len(GAME_FIELDS)

# Per side of a game row (the SESSION row: S_POINTS holds match points, S_WINS every
# hand won; for teams row 1 holds the round being played).
S_POINTS = 0  # hand points toward the target
S_BOXES = 1  # boxes (hands won, Oklahoma extras included)
S_WINS = 2  # hands won
S_SCORE = 3  # final total with game, box and shutout bonuses
S_WIDTH = 4
# Per game row.
G_WINNER = 0  # -1 while open
G_HANDS = 1  # hands played when decided (SESSION: hands played so far)
G_SHUTOUT = 2
G_MATCHES = 3  # SESSION only: multi-matches' matches finished (teams: rounds)
G_WIDTH = 4
HOLLYWOOD_COLUMNS = 3  # Hollywood's games
SESSION = 3
ROWS = 4
MAX_SIDES = 3  # sides 0..2 of a game row (two players use 0 and 1)


@jit
def reset_game_nb(sides, games):
    """Clear a game's state before its first hand."""
    sides[:] = 0
    games[:] = 0
    games[:, G_WINNER] = -1


@jit
def hand_boxes_nb(outcome, multiplier, gr):
    """Boxes a won hand is worth: 1, or with Oklahoma boxes 2 for an undercut and 3 for
    gin, times the hand's multiplier (§8.1)."""
    if gr[GR_OKLAHOMA_BOXES] == 0:
        return 1
    boxes = 1
    if outcome == OUT_UNDERCUT:
        boxes = 2
    elif outcome == OUT_GIN or outcome == OUT_BIG_GIN:
        boxes = 3
    return boxes * multiplier


@jit
def _win_hand_nb(sides, row, side, points, boxes, target):
    """Enter a won hand in one game row; True when the side reached ``target``."""
    sides[row, side, S_POINTS] += points
    sides[row, side, S_BOXES] += boxes
    sides[row, side, S_WINS] += 1
    return sides[row, side, S_POINTS] >= target


@jit
def _close_game_nb(sides, games, row, winner, count, shutouts, gr):
    """Final totals of a decided game (§7): hand points, boxes, the game bonus, and for
    two sides (``shutouts``) the shutout when the loser won no hand."""
    games[row, G_WINNER] = winner
    games[row, G_HANDS] = games[SESSION, G_HANDS]
    for s in range(count):
        sides[row, s, S_SCORE] = (sides[row, s, S_POINTS]
                                  + sides[row, s, S_BOXES] * gr[GR_BOX_BONUS])
    sides[row, winner, S_SCORE] += gr[GR_GAME_BONUS]
    if shutouts and sides[row, 1 - winner, S_WINS] == 0:
        games[row, G_SHUTOUT] = 1
        if gr[GR_SHUTOUT] == SHUTOUT_DOUBLE:
            sides[row, winner, S_SCORE] *= 2
        elif gr[GR_SHUTOUT] == SHUTOUT_BONUS:
            sides[row, winner, S_SCORE] += gr[GR_SHUTOUT_BONUS]


@jit
def _standard_nb(sides, games, winner, points, boxes, gr):
    """Hands until a running total reaches the target."""
    if _win_hand_nb(sides, 0, winner, points, boxes, gr[GR_TARGET]):
        _close_game_nb(sides, games, 0, winner, 2, True, gr)
        return True
    return False


@jit
def _hollywood_nb(sides, games, winner, points, boxes, gr):
    """A side's n-th hand won enters games 1..min(n, 3) still open; over when all three
    are decided (§8.3)."""
    sides[SESSION, winner, S_WINS] += 1
    columns = min(sides[SESSION, winner, S_WINS], HOLLYWOOD_COLUMNS)
    for c in range(columns):
        if games[c, G_WINNER] < 0 and _win_hand_nb(sides, c, winner, points, boxes,
                                                   gr[GR_TARGET]):
            _close_game_nb(sides, games, c, winner, 2, True, gr)
    for c in range(HOLLYWOOD_COLUMNS):
        if games[c, G_WINNER] < 0:
            return False
    return True


@jit
def _multimatch_nb(sides, games, winner, points, gr, match_total):
    """Matches to the target, totals cleared after each; match points per hand won, per
    match and per shutout (§8.4) until a side has ``match_total``."""
    sides[SESSION, winner, S_POINTS] += gr[GR_MATCH_HAND]
    if not _win_hand_nb(sides, 0, winner, points, 1, gr[GR_TARGET]):
        return False
    sides[SESSION, winner, S_POINTS] += gr[GR_MATCH_BONUS]
    if sides[0, 1 - winner, S_WINS] == 0:
        sides[SESSION, winner, S_POINTS] += gr[GR_MATCH_SHUTOUT]
    sides[0] = 0
    games[SESSION, G_MATCHES] += 1
    if max(sides[SESSION, 0, S_POINTS], sides[SESSION, 1, S_POINTS]) < match_total:
        return False
    games[SESSION, G_WINNER] = 1 if sides[SESSION, 1, S_POINTS] > sides[SESSION, 0,
                                                                          S_POINTS] else 0
    return True


@jit
def _three_nb(sides, games, winner, points, gr):
    """Three players, each to the target on their own; boxes and the game bonus, no
    shutout (§8.6)."""
    if _win_hand_nb(sides, 0, winner, points, 1, gr[GR_TARGET]):
        _close_game_nb(sides, games, 0, winner, 3, False, gr)
        return True
    return False


@jit
def _teams_nb(sides, games, team, points, gr):
    """Two teams (§8.7), hands in rounds of two (row 1 holds the round): a team that won
    both scores both, otherwise the higher score scores the difference; to the team
    target."""
    if team >= 0:
        sides[1, team, S_WINS] += 1
        sides[1, team, S_POINTS] += points
    if games[SESSION, G_HANDS] % 2 == 1:
        return False
    games[SESSION, G_MATCHES] += 1
    pa = sides[1, 0, S_POINTS]
    pb = sides[1, 1, S_POINTS]
    if sides[1, 0, S_WINS] == 2 or sides[1, 1, S_WINS] == 2:
        t = 0 if sides[1, 0, S_WINS] == 2 else 1
        sides[0, t, S_POINTS] += sides[1, t, S_POINTS]
    elif pa != pb:
        t = 0 if pa > pb else 1
        sides[0, t, S_POINTS] += abs(pa - pb)
    sides[1] = 0
    target = gr[GR_TEAM_TARGET]
    if sides[0, 0, S_POINTS] < target and sides[0, 1, S_POINTS] < target:
        return False
    games[0, G_WINNER] = 0 if sides[0, 0, S_POINTS] >= target else 1
    games[0, G_HANDS] = games[SESSION, G_MATCHES]
    return True


@jit
def game_hand_nb(system, sides, games, hand, gr, match_total):
    """Enter one played hand, ``(winner, points, outcome, multiplier)`` (``winner`` -1:
    nobody scored), in a game of ``system``; True when the game (the session, the
    multi-match) is over."""
    winner, points, outcome, multiplier = hand
    games[SESSION, G_HANDS] += 1
    if system == TEAMS:
        return _teams_nb(sides, games, winner, points, gr)
    if winner < 0:
        return False
    if system == HOLLYWOOD:
        return _hollywood_nb(sides, games, winner, points,
                             hand_boxes_nb(outcome, multiplier, gr), gr)
    if system == MULTIMATCH:
        return _multimatch_nb(sides, games, winner, points, gr, match_total)
    if system == THREE:
        return _three_nb(sides, games, winner, points, gr)
    return _standard_nb(sides, games, winner, points, hand_boxes_nb(outcome, multiplier, gr),
                        gr)


@jit
def score_hands_nb(system, hands, gr, match_total, sides, games):
    """Enter hands in order until the game is over; the hands used, or -1 when the
    sequence ends first. ``hands`` is ``(winners, points, outcomes, multipliers)``, one
    array each."""
    winners, points, outcomes, multipliers = hands
    reset_game_nb(sides, games)
    for i in range(winners.shape[0]):
        if game_hand_nb(system, sides, games, (winners[i], points[i], outcomes[i],
                                               multipliers[i]), gr, match_total):
            return i + 1
    return -1
