"""Games and matches (docs/rules.md §7, §8.3, §8.4, §8.6, §8.7): play hand sequences, score them.

The kernels in :mod:`ginsim.simulator.play.games_nb` play the hands (the same engine as
single hands) and score each game as it goes with :mod:`ginsim.game.scoring.game_scoring_nb`;
this layer validates the input and turns their game states into one row per game.
Counts are bounded (games 1..1,000,000, match_total 1..10,000; see
:mod:`ginsim.simulator.limits`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ...game.card_tables import card_tables
from ...game.inputs.checks import check_choice, check_int
from ...game.inputs.specs import brief
from ...game.rules import Rules
from ...game.scoring.game_scoring import new_states, pack_game_rules
from ...game.scoring.game_scoring_nb import (
    G_HANDS,
    G_MATCHES,
    G_SHUTOUT,
    G_WINNER,
    HOLLYWOOD,
    HOLLYWOOD_COLUMNS,
    MULTIMATCH,
    S_BOXES,
    S_POINTS,
    S_SCORE,
    SESSION,
    STANDARD,
)
from ...strategies.charts.score_charts import distance_edges
from ...strategies.charts.score_grid_nb import SCORE_BUCKETS
from ...strategies.params import GRID_CELLS, KIND_MC, P_KIND, P_MC_GAME, P_SIZE
from ...strategies.presets import Strategy, parse_strategy
from ..limits import (
    MAX_GAME_HANDS,
    MAX_HAND_INDEX,
    MAX_MATCH_TOTAL,
    check_games,
    check_seed,
)
from ..machine.buffers import NO_WIN_TABLE, GameBuffers, Schedule, hand_buffers
from ..machine.records import RECORD_DTYPE, TRACE_WIDTH
from ..search.win_table import game_win_table
from .engine import seat_params
from .games_nb import play_games_nb, play_teams_nb, play_three_nb

SYSTEMS = {"standard": STANDARD, "hollywood": HOLLYWOOD, "multimatch": MULTIMATCH}
BATCH_GAMES = 4096  # games per kernel call: memory for one batch only

GAME_DTYPE = np.dtype([
    ("game", np.int64), ("winner", np.int8), ("score_a", np.int32), ("score_b", np.int32),
    ("margin", np.int32), ("hands", np.int16), ("shutout", np.bool_),
    ("points_a", np.int32), ("points_b", np.int32), ("boxes_a", np.int16),
    ("boxes_b", np.int16),
])


def _game_chunks(kernel, games: int, rows_per_game: int, *args, first: int = 0
                 ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Call a scheduler kernel until games ``first .. first+games-1`` are played; yields
    (records, meta, sides, games) of a few thousand whole games at a time (the last two:
    each game's scoring state, see :mod:`ginsim.game.scoring.game_scoring_nb`)."""
    start = first
    games += first
    schedule = args[-1]
    buf = hand_buffers(np.zeros(0, dtype=RECORD_DTYPE), np.zeros((0, TRACE_WIDTH), dtype=np.int64),
                       schedule.win_table)
    sides, states = new_states(min(games, BATCH_GAMES))
    while start < games:
        capacity = max(rows_per_game, min(games - start, BATCH_GAMES) * 24)
        out = np.zeros(capacity, dtype=RECORD_DTYPE)
        meta = np.zeros((capacity, 4), dtype=np.int64)
        rows, nxt = kernel(*args[:1], start, games, *args[1:],
                           GameBuffers(meta, sides, states, buf._replace(out=out)))
        done = nxt - start
        yield out[:rows], meta[:rows], sides[:done].copy(), states[:done].copy()
        start = nxt


def _play_chunks(kernel, games: int, rows_per_game: int, *args) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of every game: (records, meta), rows grouped by game."""
    parts = list(_game_chunks(kernel, games, rows_per_game, *args))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))


def _game_states(kernel, games: int, rows_per_game: int, *args, first: int = 0
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Every game's final scoring state (sides, games), in game order."""
    parts = [(s, g) for _, _, s, g in _game_chunks(kernel, games, rows_per_game, *args,
                                                     first=first)]
    return np.concatenate([s for s, _ in parts]), np.concatenate([g for _, g in parts])


def _decided(winners: np.ndarray) -> np.ndarray:
    """``winners`` (one per game, -1: undecided) after checking that every game ended;
    a one-line ValueError names the first game the safety cap stopped (rules whose
    hands are too often dead or scoreless: :meth:`Rules.game_problem` refuses the known
    ones before play)."""
    if (winners < 0).any():
        raise ValueError(f"game {int(np.flatnonzero(winners < 0)[0])} is not over after "
                         f"{MAX_GAME_HANDS} hands (the safety cap): under these rules too many "
                         f"hands are dead or score nothing; lower the stock floor or the "
                         f"target")
    return winners


NEW_GAME = (0, 0)


def check_start(start: Sequence[int], rules: Rules) -> np.ndarray:
    """``start`` (points of seats a and b when a game starts) as int64, checked against
    ``rules.target``: each side 0 <= points < target."""
    if isinstance(start, (str, bytes)) or not isinstance(start, Sequence) or len(start) != 2:
        raise ValueError(f"start must be two scores (a, b), got {brief(start)}")
    pair = [check_int(v, f"start score {seat}", 0, rules.target - 1)
            for v, seat in zip(start, "ab", strict=True)]
    return np.array(pair, dtype=np.int64)


def score_knock(a: str | Strategy, b: str | Strategy, rules: Rules, system: str
                ) -> tuple[np.ndarray, np.ndarray]:
    """``(grids, edges)`` for the game kernel: each seat's score chart as knock grids
    (:meth:`~ginsim.strategies.presets.Strategy.score_chart_for`; -1 where the seat
    knocks by its own grid whatever the score: ``game=0``, no chart family, no shipped
    score chart, or not standard scoring) and the distance buckets' edges."""
    grids = np.full((2, SCORE_BUCKETS, SCORE_BUCKETS, GRID_CELLS), -1.0)
    if system == "standard":
        for seat, spec in enumerate((a, b)):
            chart = parse_strategy(spec).score_chart_for(rules)
            if chart is not None:
                grids[seat] = chart.grids
    return grids, distance_edges(rules.target)


def _two_player(a: str | Strategy, b: str | Strategy, games: int, seed: int,
                rules: Rules, system: str, match_total: int,
                start: Sequence[int] = NEW_GAME) -> tuple:
    """The scheduler arguments of two-player games, validated (``start``: the points the
    games start from, standard scoring only)."""
    games = check_games(games)
    seed = check_seed(seed)
    rules = Rules.coerce(rules).check_games()
    check_choice(system, "system", tuple(SYSTEMS))
    match_total = check_int(match_total, "match_total", 1, MAX_MATCH_TOTAL)
    start = check_start(start, rules)
    if system != "standard" and start.any():
        raise ValueError(f"games start from a score under standard scoring only, not "
                         f"{system}: leave the start scores out")
    params = seat_params(a, b, rules)  # an mc seat's rows select its hand loop
    plays_game = system == "standard" and any(
        params[s, P_KIND] == KIND_MC and params[s, P_MC_GAME] != 0 for s in range(2))
    table = game_win_table(rules) if plays_game else NO_WIN_TABLE
    return (play_games_nb, games, MAX_GAME_HANDS, np.uint64(seed), params,
            score_knock(a, b, rules, system),
            Schedule(rules.packed(), card_tables(rules), pack_game_rules(rules),
                     SYSTEMS[system], match_total, MAX_GAME_HANDS, table, start))


def play_game_hands(a: str | Strategy, b: str | Strategy, games: int, seed: int = 0,
                    rules: Rules | str | None = None, system: str = "standard",
                    match_total: int = 500) -> tuple[np.ndarray, np.ndarray]:
    """Play two-player games; return (hand records, meta rows (game, hand, 0, 1))."""
    return _play_chunks(*_two_player(a, b, games, seed, Rules.coerce(rules), system,
                                     match_total))


def _game_rows(sides: np.ndarray, states: np.ndarray, row: int, dtype: np.dtype) -> np.ndarray:
    """One GAME_DTYPE row per game from game ``row`` of each state."""
    s = sides[:, row]
    winner = _decided(states[:, row, G_WINNER])
    out = np.zeros(len(states), dtype=dtype)
    out["game"] = np.arange(len(states))
    out["winner"] = winner
    for i, seat in enumerate("ab"):
        out[f"score_{seat}"] = s[:, i, S_SCORE]
        out[f"points_{seat}"] = s[:, i, S_POINTS]
        out[f"boxes_{seat}"] = s[:, i, S_BOXES]
    won = np.take_along_axis(s[:, :2, S_SCORE], winner[:, None], 1)[:, 0]
    lost = np.take_along_axis(s[:, :2, S_SCORE], 1 - winner[:, None], 1)[:, 0]
    out["margin"] = won - lost
    out["hands"] = states[:, row, G_HANDS]
    out["shutout"] = states[:, row, G_SHUTOUT] != 0
    return out


def game_records(a: str | Strategy = "simple", b: str | Strategy = "simple", games: int = 1000,
                 seed: int = 0, rules: Rules | str | None = None,
                 start: Sequence[int] = NEW_GAME) -> np.ndarray:
    """Standard games of ``a`` (seat a) against ``b``: one row per game (GAME_DTYPE).

    ``margin`` is the winner's final score minus the loser's. ``start``: the points of
    seats a and b when each game starts (boxes count from there; a side with points can
    no longer be shut out).
    """
    sides, states = _game_states(*_two_player(a, b, games, seed, Rules.coerce(rules),
                                              "standard", 500, start))
    return _game_rows(sides, states, 0, GAME_DTYPE)


def play_hollywood(a: str | Strategy = "simple", b: str | Strategy = "simple",
                   games: int = 1000, seed: int = 0, rules: Rules | str | None = None
                   ) -> np.ndarray:
    """Hollywood sessions: three rows per session (column 1-3), GAME_DTYPE plus ``column``."""
    sides, states = _game_states(*_two_player(a, b, games, seed, Rules.coerce(rules),
                                              "hollywood", 500))
    dtype = np.dtype(GAME_DTYPE.descr + [("column", np.int8)])
    out = np.zeros(3 * len(states), dtype=dtype)
    for c in range(3):
        out[c::3] = _game_rows(sides, states, c, dtype)
        out["column"][c::3] = c + 1
    return out


def play_multimatch(a: str | Strategy = "simple", b: str | Strategy = "simple",
                    games: int = 1000, seed: int = 0, rules: Rules | str | None = None,
                    match_total: int = 500) -> np.ndarray:
    """Multi-matches to ``match_total`` match points: one row per multi-match."""
    sides, states = _game_states(*_two_player(a, b, games, seed, Rules.coerce(rules),
                                              "multimatch", match_total))
    dtype = np.dtype([("game", np.int64), ("winner", np.int8), ("match_points_a", np.int32),
                      ("match_points_b", np.int32), ("matches", np.int16),
                      ("hands", np.int32)])
    out = np.zeros(len(states), dtype=dtype)
    out["game"] = np.arange(len(states))
    out["winner"] = _decided(states[:, SESSION, G_WINNER])
    out["match_points_a"] = sides[:, SESSION, 0, S_POINTS]
    out["match_points_b"] = sides[:, SESSION, 1, S_POINTS]
    out["matches"] = states[:, SESSION, G_MATCHES]
    out["hands"] = states[:, SESSION, G_HANDS]
    return out


def _player_params(specs: Sequence[str | Strategy], count: int, rules: Rules) -> np.ndarray:
    if isinstance(specs, (str, bytes)) or not isinstance(specs, Sequence) or len(
            specs) != count:
        raise ValueError(f"expected a list of {count} strategies, got {brief(specs)}")
    if any(parse_strategy(s).is_mc for s in specs):
        raise ValueError("the mc player plays two-player games only (play_games, simulate)")
    return np.stack([parse_strategy(s).vector_for(rules) for s in specs])


def _seated(kernel, strategies: Sequence[str | Strategy], count: int, games: int, seed: int,
            rules: Rules, rows_per_game: int) -> tuple[np.ndarray, np.ndarray]:
    """The final scoring states of ``games`` games among ``count`` players, validated."""
    params = _player_params(strategies, count, rules)
    rules = Rules.coerce(rules).check_games()
    pair = np.zeros((2, P_SIZE), dtype=np.float64)
    return _game_states(kernel, check_games(games), rows_per_game, np.uint64(check_seed(seed)),
                        params, pair, Schedule(rules.packed(), card_tables(rules),
                                               pack_game_rules(rules), 0, 0, MAX_GAME_HANDS,
                                               NO_WIN_TABLE, np.zeros(2, dtype=np.int64)))


def play_three(strategies: Sequence[str | Strategy] = ("simple",) * 3, games: int = 1000,
                 seed: int = 0, rules: Rules | str | None = None) -> np.ndarray:
    """Three-player games (§8.6): one row per game with each player's final score."""
    sides, states = _seated(play_three_nb, strategies, 3, games, seed, Rules.coerce(rules),
                            MAX_GAME_HANDS)
    dtype = np.dtype([("game", np.int64), ("winner", np.int8), ("score_0", np.int32),
                      ("score_1", np.int32), ("score_2", np.int32), ("hands", np.int16)])
    out = np.zeros(len(states), dtype=dtype)
    out["game"] = np.arange(len(states))
    out["winner"] = _decided(states[:, 0, G_WINNER])
    for p in range(3):
        out[f"score_{p}"] = sides[:, 0, p, S_SCORE]
    out["hands"] = states[:, 0, G_HANDS]
    return out


def play_teams(strategies: Sequence[str | Strategy] = ("simple",) * 4, games: int = 1000,
                 seed: int = 0, rules: Rules | str | None = None) -> np.ndarray:
    """Four players in two teams (§8.7): players 0, 1 against 2, 3, to the rules'
    ``team_target``; one row per game."""
    sides, states = _seated(play_teams_nb, strategies, 4, games, seed, Rules.coerce(rules),
                            2 * MAX_GAME_HANDS)
    dtype = np.dtype([("game", np.int64), ("winner", np.int8), ("team_0", np.int32),
                      ("team_1", np.int32), ("rounds", np.int16)])
    out = np.zeros(len(states), dtype=dtype)
    out["game"] = np.arange(len(states))
    out["winner"] = _decided(states[:, 0, G_WINNER])
    out["team_0"] = sides[:, 0, 0, S_POINTS]
    out["team_1"] = sides[:, 0, 1, S_POINTS]
    out["rounds"] = states[:, 0, G_HANDS]
    return out


#: One row per game of :func:`pair_games`: the deck (the kernels' game index), the
#: Hollywood column (0 in the other systems), the winning seat, each seat's final score
#: (match points in a multi-match) and the hands the game took.
PAIR_GAME_DTYPE = np.dtype([
    ("deck", np.int64), ("column", np.int8), ("winner", np.int8), ("score_a", np.int32),
    ("score_b", np.int32), ("hands", np.int32),
])


def pair_games(a: str | Strategy, b: str | Strategy, first: int, games: int, seed: int = 0,
               rules: Rules | str | None = None, system: str = "standard",
               match_total: int = 500) -> np.ndarray:
    """Games ``first .. first+games-1`` of ``a`` (seat a) against ``b`` under ``system``,
    each dealt exactly as that game of :func:`game_records` (the same decks whatever
    the range): one PAIR_GAME_DTYPE row per game, three per Hollywood session."""
    first = check_int(first, "first game", 0, MAX_HAND_INDEX // MAX_GAME_HANDS)
    kernel, count, rows, *args = _two_player(a, b, games, seed, Rules.coerce(rules), system,
                                             match_total)
    sides, states = _game_states(kernel, count, rows, *args, first=first)
    decks = first + np.arange(len(states))
    columns = (range(HOLLYWOOD_COLUMNS) if system == "hollywood" else
               [SESSION] if system == "multimatch" else [0])
    out = np.zeros((len(states), len(columns)), dtype=PAIR_GAME_DTYPE)
    for i, row in enumerate(columns):
        part = out[:, i]
        part["deck"] = decks
        part["column"] = i + 1 if system == "hollywood" else 0
        part["winner"] = _decided(states[:, row, G_WINNER])
        field = S_POINTS if system == "multimatch" else S_SCORE
        part["score_a"] = sides[:, row, 0, field]
        part["score_b"] = sides[:, row, 1, field]
        part["hands"] = states[:, row, G_HANDS]
    return out.reshape(-1)
