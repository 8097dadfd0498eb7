"""Posterior samples of the opponent's hand given the public history (numpy layer).

See :mod:`ginsim.simulator.belief_nb` for the model. :func:`sample_beliefs` returns
particles with normalised importance weights and their effective sample size; given
several opponent models it mixes them and also returns each model's posterior weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..game.history import History
from ..game.rules import Rules
from ..game.tables import card_tables
from ..strategies.presets import Strategy
from .belief_nb import TEMPERATURE, WAIT, sample_beliefs_nb, smc_beliefs_nb
from .belief_types import Hidden, Likelihood, Particles, PublicHistory, Replay
from .board_nb import oklahoma_limit_nb
from .buffers import new_board
from .engine import seat_params

FULL = (1 << 52) - 1
MOVES = 6  # rounds of Metropolis moves per particle after each tempering step
STAGES = 20  # tempering steps at most


@dataclass(frozen=True)
class Beliefs:
    """Weighted guesses of the opponent's hand now."""

    hands: np.ndarray  # int64 masks
    weights: np.ndarray  # normalised, sum 1
    unseen: int  # mask of cards the opponent might hold beyond its known pickups
    ess: float  # effective sample size of the final weights, (sum w)^2 / sum w^2
    model_weights: np.ndarray  # posterior weight of each opponent model (sum 1)


def knock_limit_of(history: History, rules: Rules) -> int:
    """The hand's knock limit (Oklahoma: set by the upcard), by the deal's own kernel."""
    if rules.oklahoma and history.upcard >= 0:
        return int(oklahoma_limit_nb(history.upcard, rules.packed()))
    return rules.knock_limit


def unseen_mask(history: History, my_hand: int) -> int:
    """Cards that may be hidden in the opponent's hand or the stock."""
    return FULL & ~my_hand & ~history.pile_mask & ~history.taken[1]


def model_rows(model: str | Strategy | Sequence[str | Strategy],
               prior: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The belief's opponent models as float64[K, 2, P] seat rows (the model in row 1)
    and their normalised log prior weights (equal weights without ``prior``)."""
    models = [model] if isinstance(model, (str, Strategy)) else list(model)
    if not models:
        raise ValueError("no opponent model: give a strategy spec or a list of them")
    weights = np.ones(len(models)) if prior is None else np.asarray(prior, dtype=np.float64)
    if weights.shape != (len(models),) or not (weights > 0).all() or not np.isfinite(
            weights).all():
        raise ValueError(f"prior must give one weight above 0 per model ({len(models)}), got "
                         f"{list(weights)!r}")
    rows = np.stack([seat_params(m, m) for m in models])
    return rows, np.log(weights / weights.sum())


def model_weights_of(lks: np.ndarray, log_prior: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each model's posterior weight: the particles' weights times each particle's
    posterior over the models (prior times the model's likelihood of the particle)."""
    terms = lks + log_prior
    terms = np.exp(terms - terms.max(axis=1, keepdims=True))
    terms /= terms.sum(axis=1, keepdims=True)
    return weights @ terms


def sample_beliefs(history: History, my_hand: int,
                   model: str | Strategy | Sequence[str | Strategy], rules: Rules,
                   particles: int, seed: int, temperature: float = TEMPERATURE,
                   uniform: bool = False, moves: int = MOVES, stages: int = STAGES,
                   wait: float = WAIT, prior: Sequence[float] | None = None) -> Beliefs:
    """``particles`` weighted guesses of the opponent's hand by tempered sequential
    Monte Carlo (``stages`` tempering steps at most, ``moves`` rounds of Metropolis
    moves per particle after each: a hand swap and a draw-order exchange); ``uniform``
    skips the model (every weight equal: uniform sampling given the pickups, as the
    shorthand advisor does); ``wait`` is the chance that the opponent plays on where
    its model would knock. A list of models is a mixture (weights ``prior``, equal
    without), whose posterior weights come back in ``model_weights``."""
    if not temperature > 0:
        raise ValueError(f"temperature must be above 0, got {temperature!r}")
    if not 0 < wait <= 1:
        raise ValueError(f"wait must be a probability in (0, 1], got {wait!r}")
    unseen = unseen_mask(history, my_hand)
    unseen_cards = np.array([c for c in range(52) if (unseen >> c) & 1], dtype=np.int64)
    held = history.taken[1]
    n_hidden = 10 - bin(held).count("1")
    if n_hidden > len(unseen_cards) or n_hidden < 0:
        raise ValueError(f"the history leaves {len(unseen_cards)} unseen cards for the "
                         f"opponent's {n_hidden} hidden ones: check the hand and the history")
    hands = np.zeros(particles, dtype=np.int64)
    logl = np.zeros(particles, dtype=np.float64)
    models, log_prior = model_rows(model, prior)
    lk = np.zeros(len(models))
    events = np.ascontiguousarray(history.events, dtype=np.int64).reshape(-1, 4)
    ev_card = np.full(max(len(events), 1), -1, dtype=np.int64)
    rng = np.zeros(3, dtype=np.uint64)
    limit = knock_limit_of(history, rules)
    log_wait = float(np.log(wait))
    record = PublicHistory(events, int(history.dealer), int(history.upcard), int(limit))
    hidden = Hidden(unseen_cards, n_hidden, held)
    like = Likelihood(models, log_prior, lk, float(temperature), log_wait, rules.packed(),
                      card_tables(rules))
    work = Replay(ev_card, new_board(), rng)
    if uniform:
        sample_beliefs_nb(np.uint64(seed), record, hidden, like, hands, logl, work)
        weights = np.full(particles, 1.0 / particles)
        return Beliefs(hands, weights, unseen, float(particles), np.exp(log_prior))
    weights = np.zeros(particles, dtype=np.float64)
    source = np.zeros((particles, 52 + len(models)), dtype=np.int64)
    parts = Particles(hands, logl, np.zeros(particles), weights, source,
                      np.zeros(particles, dtype=np.int64), np.zeros(particles),
                      np.zeros_like(source))
    ess = smc_beliefs_nb(np.uint64(seed), record, hidden, like, moves, stages, parts, work)
    lks = source.view(np.float64)[:, 52:]
    return Beliefs(hands, weights, unseen, float(ess), model_weights_of(lks, log_prior, weights))
