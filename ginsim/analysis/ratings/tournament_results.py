"""A tournament in tables: ratings with intervals, the pairs with paired intervals, the
crosstable and the ranking, from the games :mod:`ginsim.runner.tournament` stored.

A pair's win rate and points a game are means over its decks of each deck's games (both
seatings), so the interval is paired: the luck of the cards, shared by the two seatings,
cancels. Ratings are the Bradley–Terry fit of :mod:`.bradley_terry` with 95% percentile
intervals from resampled decks. Two players next to each other in the ranking cannot be
told apart when fewer than 97.5% of the resamples keep them in that order.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...game.rules import Rules
from ...runner.tournament import (
    PairChunk,
    TournamentPlan,
    TournamentRun,
    run_tournament_games,
)
from ...table.referee import display_name, is_program, program
from ..intervals import mean_interval, wilson_interval
from .bradley_terry import BOOTSTRAP_RESAMPLES, bootstrap_ratings, deck_wins, fit_ratings

APART = 0.975  # share of resamples that must keep two neighbours in order


@dataclass
class TournamentResult:
    """Ratings, pairs, crosstable and ranking of a tournament, and the run behind them."""

    run: TournamentRun
    ratings: pd.DataFrame
    pairs: pd.DataFrame
    crosstable: pd.DataFrame
    ranking: str
    faults: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The JSON the command writes: ``ratings`` [{player, rating, ci}], ``pairs``
        [{a, b, games, rate_a, ci}] with more fields each, the ranking and the settings."""
        plan = self.run.plan
        ratings = [{"player": r.player, "rating": round(r.rating, 1),
                    "ci": [round(r.low, 1), round(r.high, 1)], "rank": int(r.rank),
                    "apart_from_next": bool(r.apart_from_next), "games": int(r.games),
                    "wins": int(r.wins), "forfeits": int(r.forfeits), "note": r.note}
                   for r in self.ratings.itertuples()]
        pairs = [{"a": r.a, "b": r.b, "games": int(r.games), "rate_a": round(r.rate_a, 4),
                  "ci": [round(r.rate_low, 4), round(r.rate_high, 4)],
                  "points_a": round(r.points_a, 2),
                  "points_ci": [round(r.points_low, 2), round(r.points_high, 2)],
                  "forfeits_a": int(r.forfeits_a), "forfeits_b": int(r.forfeits_b)}
                 for r in self.pairs.itertuples()]
        return {"tournament": {"players": [display_name(p) for p in plan.players],
                               "commands": {display_name(p): program(p) for p in plan.players
                                            if is_program(p)},
                               "games_a_pair": plan.games,
                               "decks": plan.decks, "seed": plan.seed,
                               "rules": plan.rules.spec(), "system": plan.system,
                               "rating": "Bradley-Terry, Elo scale, field mean 1500; 95% "
                                         f"intervals from {BOOTSTRAP_RESAMPLES} resamples "
                                         "of the decks"},
                "ratings": ratings, "ranking": self.ranking, "pairs": pairs,
                "faults": self.faults}

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"


def tournament_tables(run: TournamentRun, resamples: int = BOOTSTRAP_RESAMPLES
                      ) -> TournamentResult:
    """The tables of a played tournament (deterministic: the bootstrap draws from the
    tournament's seed)."""
    index = {p: i for i, p in enumerate(run.plan.players)}
    players = [display_name(p) for p in run.plan.players]
    first, second, deck, won = [], [], [], []
    for (a, b), rows in zip(run.pairs, run.games, strict=True):
        first.append(np.full(len(rows), index[a]))
        second.append(np.full(len(rows), index[b]))
        deck.append(rows["deck"])
        won.append(rows["winner"] == 0)
    per_deck = deck_wins(np.concatenate(first), np.concatenate(second), np.concatenate(deck),
                         np.concatenate(won), len(players), run.plan.decks)
    wins = per_deck.sum(axis=0)
    rating = fit_ratings(wins)
    boot = bootstrap_ratings(per_deck, resamples, run.plan.seed)
    ratings = _ratings(players, rating, boot, wins, run)
    pairs = pd.DataFrame([_pair_row(a, b, rows, index)
                          for (a, b), rows in zip(run.pairs, run.games, strict=True)])
    faults = [line for lines in run.faults for line in lines]
    return TournamentResult(run, ratings, pairs, _crosstable(players, wins),
                            _ranking_text(ratings), faults)


def _ratings(players: list[str], rating: np.ndarray, boot: np.ndarray, wins: np.ndarray,
             run: TournamentRun) -> pd.DataFrame:
    """One row per player, best first: rating, interval, rank (shared by players that
    cannot be told apart from the one above), games, wins, forfeits."""
    order = np.argsort(-rating, kind="stable")
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    forfeits = dict.fromkeys(players, 0)
    for (a, b), rows in zip(run.pairs, run.games, strict=True):
        forfeits[display_name(a)] += int((rows["forfeit"] == 0).sum())
        forfeits[display_name(b)] += int((rows["forfeit"] == 1).sum())
    out, rank = [], 0
    for k, i in enumerate(order):
        apart = bool(k + 1 < len(order) and
                     (boot[:, i] > boot[:, order[k + 1]]).mean() >= APART)
        if k == 0 or out[-1]["apart_from_next"]:
            rank = k + 1
        out.append({"player": players[i], "rating": float(rating[i]), "low": float(low[i]),
                    "high": float(high[i]), "rank": rank, "apart_from_next": apart,
                    "games": int(wins[i].sum() + wins[:, i].sum()),
                    "wins": int(wins[i].sum()), "forfeits": forfeits[players[i]],
                    "note": _bound_note(wins, i)})
    return pd.DataFrame(out)


def _bound_note(wins: np.ndarray, i: int) -> str:
    """Why a rating is set by the prior, or "": a player that won or lost every game has
    no finite maximum-likelihood rating."""
    if not wins[i].any():
        return "won no game: the prior sets its rating (an upper bound)"
    if not wins[:, i].any():
        return "lost no game: the prior sets its rating (a lower bound)"
    return ""


def _pair_row(a: str, b: str, rows: np.ndarray, index: dict[str, int]) -> dict[str, Any]:
    """A pair in the order the players were named: rate and points a game of the first,
    each a mean over decks with its paired interval."""
    flip = index[a] > index[b]
    a_won = (rows["winner"] == (1 if flip else 0)).astype(float)
    points = (rows["score_a"] - rows["score_b"]).astype(float) * (-1 if flip else 1)
    decks, where = np.unique(rows["deck"], return_inverse=True)
    per_game = np.bincount(where)
    rate = deck_wilson(np.bincount(where, a_won), per_game)
    margin = mean_interval(np.bincount(where, points) / per_game)
    forfeit = [int((rows["forfeit"] == side).sum()) for side in ((1, 0) if flip else (0, 1))]
    a, b = display_name(a), display_name(b)
    return {"a": b if flip else a, "b": a if flip else b, "games": len(rows),
            "decks": len(decks), "rate_a": rate[0], "rate_low": rate[1],
            "rate_high": rate[2], "points_a": margin[0], "points_low": margin[1],
            "points_high": margin[2], "forfeits_a": forfeit[0], "forfeits_b": forfeit[1]}


def deck_wilson(wins: np.ndarray, games: np.ndarray) -> tuple[float, float, float]:
    """(rate, low, high): the Wilson 95% interval of a win rate whose games come in decks
    (``wins`` and ``games`` per deck), at the effective sample size of the deck-clustered
    variance sum_d (k_d - r n_d)^2 / n^2 (the decks' count when it is 0), as
    :func:`~ginsim.analysis.intervals.clustered_wilson` does for two hands a deal."""
    k, n = float(wins.sum()), float(games.sum())
    r = k / n
    var = float(((wins - r * games) ** 2).sum()) / n ** 2
    if var <= 0 < r < 1:  # every deck split the same way: no sampling error
        return r, r, r
    n_eff = r * (1 - r) / var if var > 0 else float(len(games))
    low, high = wilson_interval(r * n_eff, n_eff)
    return r, float(low), float(high)


def _crosstable(players: list[str], wins: np.ndarray) -> pd.DataFrame:
    """Row player's share of the games against the column player (NaN on the diagonal)."""
    games = wins + wins.T
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(games > 0, wins / games, np.nan)
    return pd.DataFrame(share, index=players, columns=players)


def _ranking_text(ratings: pd.DataFrame) -> str:
    """'mc > expert = learned > simple': '=' where two neighbours cannot be told apart."""
    parts = []
    for r in ratings.itertuples():
        parts.append(r.player)
        parts.append(" > " if r.apart_from_next else " = ")
    return "".join(parts[:-1])


def run_tournament(players: Sequence[str], games: int, seed: int = 0,
                   out: str | os.PathLike = "tournament",
                   rules: Rules | str | None = None, system: str = "standard", *,
                   timeout_ms: int = 1000, n_jobs: int | None = None,
                   backend: str = "local", scheduler: str | None = None,
                   chunk_decks: int | None = None,
                   on_chunk: Callable[[PairChunk], None] | None = None
                   ) -> TournamentResult:
    """Play a round robin with duplicate deals into the store ``out`` (resumed, or grown
    by new players) and rate it; see :mod:`ginsim.runner.tournament`."""
    plan = TournamentPlan.make(players, games, seed, rules, system, timeout_ms, chunk_decks)
    run = run_tournament_games(plan, out, n_jobs=n_jobs, backend=backend,
                               scheduler=scheduler, on_chunk=on_chunk)
    return tournament_tables(run)
