"""Bradley–Terry ratings fitted to all games at once, on the Elo scale.

P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400)). The maximum-likelihood fit of a win
matrix is ``choix.ilsr_pairwise_dense`` (Maystre and Grossglauser's iterative Luce
spectral ranking, which converges to the same maximum as Hunter's MM algorithm). A
player that won (or lost) every game has no finite maximum: ``prior`` adds half a win
each way to every pair that played (a regularised maximum), so such a
player's rating is a bound the prior sets, and the tables say so. Intervals come from
resampling the decks (every pair played the same decks, so a deck and all its games are
one unit), refitting each resample.
"""

from __future__ import annotations

import math

import choix
import numpy as np

ELO = 400 / math.log(10)  # Elo points per unit of the logistic scale
MEAN_RATING = 1500.0  # the field's mean rating
PRIOR_WINS = 0.5  # virtual wins each way per pair that played
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_BATCH = 50  # resamples drawn at once (memory: batch x decks counts)
MAX_FIT_ITERATIONS = 10_000


def fit_ratings(wins: np.ndarray, prior: float = PRIOR_WINS,
                start: np.ndarray | None = None) -> np.ndarray:
    """Elo-scale ratings (mean :data:`MEAN_RATING`) maximising the Bradley–Terry
    likelihood of ``wins[i, j]``, the games ``i`` won against ``j`` (plus ``prior`` wins
    each way for every pair that played); ``start``: ratings to start the iteration
    from (a nearby fit: the same maximum, found sooner)."""
    wins = np.asarray(wins, dtype=float)
    if wins.ndim != 2 or wins.shape[0] != wins.shape[1] or wins.shape[0] < 2:
        raise ValueError(f"wins must be a square matrix of 2 or more players, got shape "
                         f"{wins.shape}")
    if (wins < 0).any() or np.diag(wins).any():
        raise ValueError("wins must be counts (>= 0) with nothing on the diagonal")
    played = (wins + wins.T) > 0
    initial = None if start is None else (np.asarray(start, float) - MEAN_RATING) / ELO
    theta = choix.ilsr_pairwise_dense(wins + prior * played, initial_params=initial,
                                      max_iter=MAX_FIT_ITERATIONS)
    theta = theta - theta.mean()
    return MEAN_RATING + ELO * theta


def deck_wins(first: np.ndarray, second: np.ndarray, deck: np.ndarray,
              first_won: np.ndarray, players: int, decks: int) -> np.ndarray:
    """The (decks, players, players) win counts of the games given one per row: the
    players of each game, its deck and whether ``first`` won."""
    out = np.zeros((decks, players, players), dtype=np.int32)
    won = first_won.astype(bool)
    winner = np.where(won, first, second)
    loser = np.where(won, second, first)
    np.add.at(out, (deck, winner, loser), 1)
    return out


def bootstrap_ratings(per_deck: np.ndarray, resamples: int = BOOTSTRAP_RESAMPLES,
                      seed: int = 0, prior: float = PRIOR_WINS) -> np.ndarray:
    """(resamples, players) ratings, each fitted to decks drawn with replacement from
    ``per_deck`` (decks, players, players) win counts."""
    decks = per_deck.shape[0]
    whole = fit_ratings(per_deck.sum(axis=0), prior)
    rng = np.random.default_rng(seed)
    flat = per_deck.reshape(decks, -1).astype(np.float64)
    out = []
    for lo in range(0, resamples, BOOTSTRAP_BATCH):
        n = min(BOOTSTRAP_BATCH, resamples - lo)
        counts = rng.multinomial(decks, np.full(decks, 1 / decks), size=n)
        for wins in (counts @ flat).reshape(n, *per_deck.shape[1:]):
            out.append(fit_ratings(wins, prior, whole))
    return np.array(out)
