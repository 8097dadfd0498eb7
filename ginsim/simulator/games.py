"""Games and matches (docs/rules.md §7, §8.3, §8.4, §8.6, §8.7): play hand sequences, score them.

The kernels in :mod:`ginsim.simulator.games_nb` play the hands (the same engine as
single hands) and stop when a game is over; the scoring here is plain Python over the
hand results, so it can be checked against hand-made sequences. Counts are bounded
(games 1..1,000,000, match_total 1..10,000; see :mod:`ginsim.simulator.limits`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..game.rules import INT_BOUNDS, NEXT_DEALER_MODES, Rules, brief
from ..game.scoring_nb import OUTCOMES
from ..game.tables import card_tables
from ..strategies.params import P_SIZE
from ..strategies.presets import Strategy, parse_strategy
from .games_nb import (
    SYSTEM_HOLLYWOOD,
    SYSTEM_MULTIMATCH,
    SYSTEM_STANDARD,
    play_games_nb,
    play_teams_nb,
    play_three_nb,
)
from .hand_nb import SCRATCH_SIZE
from .limits import MAX_MATCH_TOTAL, check_games, check_int, check_seed
from .records import RECORD_DTYPE, TRACE_WIDTH

SYSTEMS = {"standard": SYSTEM_STANDARD, "hollywood": SYSTEM_HOLLYWOOD,
           "multimatch": SYSTEM_MULTIMATCH}
MAX_HANDS = 400  # safety cap on the hands of one game (dead hands are redealt)
UNDERCUT = OUTCOMES.index("undercut")
GINS = (OUTCOMES.index("gin"), OUTCOMES.index("big_gin"))


@dataclass(frozen=True)
class HandResult:
    """One scored hand as game scoring sees it: who won (-1: nobody) and how."""

    winner: int
    points: int
    outcome: int = 0
    multiplier: int = 1


@dataclass(frozen=True)
class GameScore:
    """A finished game between two sides (players, or Hollywood columns)."""

    winner: int
    points: tuple[int, int]  # hand points counted toward the target
    boxes: tuple[int, int]  # boxes (hands won, Oklahoma extras included)
    scores: tuple[int, int]  # final totals with game, box and shutout bonuses
    hands: int  # hands played in this game (dead hands included)
    shutout: bool

    @property
    def margin(self) -> int:
        return self.scores[self.winner] - self.scores[1 - self.winner]


def boxes_for(hand: HandResult, rules: Rules) -> int:
    """Boxes a won hand is worth: 1, or with Oklahoma boxes 2 for an undercut and 3 for
    gin, doubled on a doubling upcard."""
    boxes = 1
    if rules.oklahoma_boxes:
        if hand.outcome == UNDERCUT:
            boxes = 2
        elif hand.outcome in GINS:
            boxes = 3
        boxes *= hand.multiplier
    return boxes


def finish_game(winner: int, points: list[int], boxes: list[int], wins: list[int],
                hands: int, rules: Rules) -> GameScore:
    """Add the game, box and shutout bonuses (§7) to a decided game."""
    loser = 1 - winner
    scores = [points[s] + boxes[s] * rules.box_bonus for s in (0, 1)]
    scores[winner] += rules.game_bonus
    shutout = wins[loser] == 0
    if shutout and rules.shutout == "double":
        scores[winner] *= 2
    elif shutout and rules.shutout == "bonus":
        scores[winner] += rules.shutout_bonus
    return GameScore(winner, tuple(points), tuple(boxes), tuple(scores), hands, shutout)


def score_game(hands: Sequence[HandResult], rules: Rules) -> GameScore:
    """Score a standard game: hands until a running total reaches ``rules.target``."""
    points, boxes, wins = [0, 0], [0, 0], [0, 0]
    for i, hand in enumerate(hands):
        if hand.winner < 0:
            continue
        w = hand.winner
        points[w] += hand.points
        boxes[w] += boxes_for(hand, rules)
        wins[w] += 1
        if points[w] >= rules.target:
            return finish_game(w, points, boxes, wins, i + 1, rules)
    raise ValueError(f"the game is not over after {len(hands)} hands")


def score_hollywood(hands: Sequence[HandResult], rules: Rules) -> tuple[list[GameScore], int]:
    """Hollywood (§8.3): a side's 1st win goes to game 1, its 2nd to games 1-2, its 3rd
    and later to games 1-3 (each game while still open). Returns the three games and the
    number of hands until the last was decided."""
    columns: list[list[HandResult]] = [[], [], []]
    wins = [0, 0]
    decided = [False, False, False]
    totals = [[0, 0], [0, 0], [0, 0]]
    for i, hand in enumerate(hands):
        if hand.winner >= 0:
            wins[hand.winner] += 1
        for c in range(3):
            if decided[c]:
                continue
            if hand.winner >= 0 and wins[hand.winner] >= c + 1:
                columns[c].append(hand)
                totals[c][hand.winner] += hand.points
                decided[c] = totals[c][hand.winner] >= rules.target
            else:
                columns[c].append(HandResult(-1, 0))  # played, not entered in this game
        if all(decided):
            return [score_game(col, rules) for col in columns], i + 1
    raise ValueError(f"the Hollywood games are not over after {len(hands)} hands")


def score_multimatch(hands: Sequence[HandResult], rules: Rules, match_total: int
                     ) -> tuple[tuple[int, int], int, int]:
    """Multi-match (§8.4): match points (25 a hand won, 100 a match, 100 more for a
    shutout) over matches to ``rules.target`` until a side reaches ``match_total``.
    Returns (match points, matches played, hands played)."""
    match_points = [0, 0]
    totals, wins = [0, 0], [0, 0]
    matches = 0
    for i, hand in enumerate(hands):
        if hand.winner < 0:
            continue
        w = hand.winner
        match_points[w] += 25
        totals[w] += hand.points
        wins[w] += 1
        if totals[w] >= rules.target:
            match_points[w] += 100 + (100 if wins[1 - w] == 0 else 0)
            matches += 1
            totals, wins = [0, 0], [0, 0]
            if max(match_points) >= match_total:
                return (match_points[0], match_points[1]), matches, i + 1
    raise ValueError(f"the multi-match is not over after {len(hands)} hands")


def score_three(hands: Sequence[tuple[int, int]], rules: Rules
                ) -> tuple[int, tuple[int, int, int], int]:
    """Three players (§8.6) from (winning player or -1, points) per hand: each player's
    own total to the target, then boxes and the game bonus. Returns (winner, final
    scores, hands)."""
    points, wins = [0, 0, 0], [0, 0, 0]
    for i, (winner, pts) in enumerate(hands):
        if winner < 0:
            continue
        points[winner] += pts
        wins[winner] += 1
        if points[winner] >= rules.target:
            scores = [points[p] + wins[p] * rules.box_bonus for p in range(3)]
            scores[winner] += rules.game_bonus
            return winner, (scores[0], scores[1], scores[2]), i + 1
    raise ValueError(f"the three-player game is not over after {len(hands)} hands")


def score_teams(rounds: Sequence[tuple[tuple[int, int], tuple[int, int]]], target: int = 125
                ) -> tuple[int, tuple[int, int], int]:
    """Two teams (§8.7) from rounds of two hands, each (winning team or -1, points): a team
    that wins both hands scores both, otherwise the higher score scores the difference.
    Returns (winning team, team totals, rounds played)."""
    totals = [0, 0]
    for r, hands in enumerate(rounds):
        won = [0, 0]
        pts = [0, 0]
        for team, points in hands:
            if team >= 0:
                won[team] += 1
                pts[team] += points
        if won[0] == 2 or won[1] == 2:
            t = 0 if won[0] == 2 else 1
            totals[t] += pts[t]
        elif pts[0] != pts[1]:
            t = 0 if pts[0] > pts[1] else 1
            totals[t] += pts[t] - pts[1 - t]
        if max(totals) >= target:
            return (0 if totals[0] >= target else 1), (totals[0], totals[1]), r + 1
    raise ValueError(f"the team game is not over after {len(rounds)} rounds")


GAME_DTYPE = np.dtype([
    ("game", np.int64), ("winner", np.int8), ("score_a", np.int32), ("score_b", np.int32),
    ("margin", np.int32), ("hands", np.int16), ("shutout", np.bool_),
    ("points_a", np.int32), ("points_b", np.int32), ("boxes_a", np.int16),
    ("boxes_b", np.int16),
])


def _hand_results(records: np.ndarray) -> list[HandResult]:
    """Each hand's winning seat (-1 when nobody scored), points, outcome, multiplier."""
    winners = np.where(records["points_a"] > records["points_b"], 0,
                       np.where(records["points_b"] > records["points_a"], 1, -1))
    points = records["points_a"].astype(int) + records["points_b"]
    return [HandResult(int(w), int(p), int(o), int(m)) for w, p, o, m in
            zip(winners, points, records["outcome"], records["multiplier"], strict=True)]


def _game_chunks(kernel, games: int, rows_per_game: int, *args
                 ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Call a scheduler kernel until all games are played; yields (records, meta) of a
    few thousand whole games at a time, so scoring needs memory for one batch only."""
    start = 0
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(3, dtype=np.uint64)
    trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    while start < games:
        capacity = max(rows_per_game, min(games - start, 4096) * 24)
        out = np.zeros(capacity, dtype=RECORD_DTYPE)
        meta = np.zeros((capacity, 4), dtype=np.int64)
        rows, nxt = kernel(*args[:1], start, games, *args[1:], out, meta, trace, scratch, rng)
        yield out[:rows], meta[:rows]
        start = nxt


def _play_chunks(kernel, games: int, rows_per_game: int, *args) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of every game: (records, meta), rows grouped by game."""
    parts = list(_game_chunks(kernel, games, rows_per_game, *args))
    return (np.concatenate([r for r, _ in parts]), np.concatenate([m for _, m in parts]))


def _each_game(kernel, games: int, rows_per_game: int, *args
               ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(game number, its hand records, its meta rows) for every game, in order."""
    g = 0
    for records, meta in _game_chunks(kernel, games, rows_per_game, *args):
        for rows in _split(meta):
            yield g, records[rows], meta[rows]
            g += 1


def _split(meta: np.ndarray) -> list[slice]:
    bounds = np.flatnonzero(np.diff(meta[:, 0])) + 1
    edges = [0, *bounds.tolist(), len(meta)]
    return [slice(a, b) for a, b in zip(edges[:-1], edges[1:], strict=True)]


def _two_player(a: str | Strategy, b: str | Strategy, games: int, seed: int,
                rules: Rules, system: str, match_total: int) -> tuple:
    """The scheduler arguments of two-player games, validated."""
    games = check_games(games)
    seed = check_seed(seed)
    rules = Rules.coerce(rules)
    if system not in SYSTEMS:
        raise ValueError(f"unknown scoring system {brief(system)}: choose one of "
                         f"{', '.join(SYSTEMS)}")
    match_total = check_int(match_total, "match_total", 1, MAX_MATCH_TOTAL)
    params = np.stack([parse_strategy(a).vector, parse_strategy(b).vector])
    return (play_games_nb, games, MAX_HANDS, np.uint64(seed), params, rules.packed(),
            card_tables(rules), SYSTEMS[system], rules.target,
            NEXT_DEALER_MODES.index(rules.next_dealer), match_total, MAX_HANDS)


def play_game_hands(a: str | Strategy, b: str | Strategy, games: int, seed: int = 0,
                    rules: Rules | str | None = None, system: str = "standard",
                    match_total: int = 500) -> tuple[np.ndarray, np.ndarray]:
    """Play two-player games; return (hand records, meta rows (game, hand, -, -))."""
    return _play_chunks(*_two_player(a, b, games, seed, Rules.coerce(rules), system,
                                     match_total))


def play_games(a: str | Strategy = "simple", b: str | Strategy = "simple", games: int = 1000,
               seed: int = 0, rules: Rules | str | None = None) -> np.ndarray:
    """Standard games of ``a`` (seat a) against ``b``: one row per game (GAME_DTYPE).

    ``margin`` is the winner's final score minus the loser's.
    """
    rules = Rules.coerce(rules)
    args = _two_player(a, b, games, seed, rules, "standard", 500)
    out = np.zeros(games, dtype=GAME_DTYPE)
    for g, records, _ in _each_game(*args):
        score = score_game(_hand_results(records), rules)
        if score.hands != len(records):
            raise RuntimeError(f"game {g}: kernel and scorer disagree on its end")
        out[g] = (g, score.winner, *score.scores, score.margin, score.hands, score.shutout,
                  *score.points, *score.boxes)
    return out


def play_hollywood(a: str | Strategy = "simple", b: str | Strategy = "simple",
                   games: int = 1000, seed: int = 0, rules: Rules | str | None = None
                   ) -> np.ndarray:
    """Hollywood sessions: three rows per session (column 1-3), GAME_DTYPE plus ``column``."""
    rules = Rules.coerce(rules)
    args = _two_player(a, b, games, seed, rules, "hollywood", 500)
    dtype = np.dtype(GAME_DTYPE.descr + [("column", np.int8)])
    out = np.zeros(3 * games, dtype=dtype)
    for g, records, _ in _each_game(*args):
        columns, used = score_hollywood(_hand_results(records), rules)
        if used != len(records):
            raise RuntimeError(f"session {g}: kernel and scorer disagree on its end")
        for c, s in enumerate(columns):
            out[3 * g + c] = (g, s.winner, *s.scores, s.margin, s.hands, s.shutout, *s.points,
                              *s.boxes, c + 1)
    return out


def play_multimatch(a: str | Strategy = "simple", b: str | Strategy = "simple",
                    games: int = 1000, seed: int = 0, rules: Rules | str | None = None,
                    match_total: int = 500) -> np.ndarray:
    """Multi-matches to ``match_total`` match points: one row per multi-match."""
    rules = Rules.coerce(rules)
    args = _two_player(a, b, games, seed, rules, "multimatch", match_total)
    dtype = np.dtype([("game", np.int64), ("winner", np.int8), ("match_points_a", np.int32),
                      ("match_points_b", np.int32), ("matches", np.int16),
                      ("hands", np.int32)])
    out = np.zeros(games, dtype=dtype)
    for g, records, _ in _each_game(*args):
        points, matches, used = score_multimatch(_hand_results(records), rules,
                                                 match_total)
        if used != len(records):
            raise RuntimeError(f"multi-match {g}: kernel and scorer disagree on its end")
        out[g] = (g, int(points[1] > points[0]), *points, matches, used)
    return out


def _player_params(specs: Sequence[str | Strategy], count: int) -> np.ndarray:
    if isinstance(specs, (str, bytes)) or not isinstance(specs, Sequence) or len(
            specs) != count:
        raise ValueError(f"expected a list of {count} strategies, got {brief(specs)}")
    return np.stack([parse_strategy(s).vector for s in specs])


def play_three(strategies: Sequence[str | Strategy] = ("simple",) * 3, games: int = 1000,
               seed: int = 0, rules: Rules | str | None = None) -> np.ndarray:
    """Three-player games (§8.6): one row per game with each player's final score."""
    rules = Rules.coerce(rules)
    params = _player_params(strategies, 3)
    games = check_games(games)
    pair = np.zeros((2, P_SIZE), dtype=np.float64)
    each = _each_game(play_three_nb, games, MAX_HANDS, np.uint64(check_seed(seed)), params,
                      pair, rules.packed(), card_tables(rules), rules.target, MAX_HANDS)
    dtype = np.dtype([("game", np.int64), ("winner", np.int8), ("score_0", np.int32),
                      ("score_1", np.int32), ("score_2", np.int32), ("hands", np.int16)])
    out = np.zeros(games, dtype=dtype)
    for g, records, m in each:  # m[i, 2 + seat] is the player in that seat
        hands = [(int(m[i, 2 + h.winner]) if h.winner >= 0 else -1, h.points)
                 for i, h in enumerate(_hand_results(records))]
        winner, scores, used = score_three(hands, rules)
        if used != len(hands):
            raise RuntimeError(f"game {g}: kernel and scorer disagree on its end")
        out[g] = (g, winner, *scores, used)
    return out


def play_teams(strategies: Sequence[str | Strategy] = ("simple",) * 4, games: int = 1000,
               seed: int = 0, rules: Rules | str | None = None, target: int = 125
               ) -> np.ndarray:
    """Four players in two teams (§8.7): players 0, 1 against 2, 3; one row per game."""
    rules = Rules.coerce(rules)
    params = _player_params(strategies, 4)
    games = check_games(games)
    target = check_int(target, "target", *INT_BOUNDS["target"])
    pair = np.zeros((2, P_SIZE), dtype=np.float64)
    each = _each_game(play_teams_nb, games, 2 * MAX_HANDS, np.uint64(check_seed(seed)),
                      params, pair, rules.packed(), card_tables(rules), target, MAX_HANDS)
    dtype = np.dtype([("game", np.int64), ("winner", np.int8), ("team_0", np.int32),
                      ("team_1", np.int32), ("rounds", np.int16)])
    out = np.zeros(games, dtype=dtype)
    for g, records, _ in each:
        hands = _hand_results(records)  # seat a holds team 0's player
        rounds = [((x.winner, x.points), (y.winner, y.points))
                  for x, y in zip(hands[0::2], hands[1::2], strict=True)]
        winner, totals, used = score_teams(rounds, target)
        if used != len(rounds):
            raise RuntimeError(f"game {g}: kernel and scorer disagree on its end")
        out[g] = (g, winner, *totals, used)
    return out
