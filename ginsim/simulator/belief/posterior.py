"""Posterior samples of the opponent's hand given the public history (numpy layer).

See :mod:`ginsim.simulator.belief.sample_nb` for the model. :func:`sample_beliefs` returns
particles with normalised importance weights and their effective sample size; given
several opponent models it mixes them and also returns each model's posterior weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...game.card_tables import card_tables
from ...game.history import History
from ...game.rng_nb import BELIEF_STEP_STRIDE, derived_seed
from ...game.rules import Rules
from ...strategies.presets import Strategy
from ..machine.buffers import new_board
from ..machine.deal_nb import oklahoma_limit_nb
from ..play.engine import seat_params
from .belief_types import Hidden, Likelihood, Particles, PublicHistory, Replay
from .carry_nb import carry_beliefs_nb
from .replay_nb import TEMPERATURE, WAIT
from .sample_nb import sample_beliefs_nb, smc_beliefs_nb

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
               prior: Sequence[float] | None = None, rules: Rules | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The belief's opponent models as float64[K, 2, P] seat rows (the model in row 1,
    knocking by its chart for ``rules``) and their normalised log prior weights (equal
    weights without ``prior``)."""
    models = [model] if isinstance(model, (str, Strategy)) else list(model)
    if not models:
        raise ValueError("no opponent model: give a strategy spec or a list of them")
    weights = np.ones(len(models)) if prior is None else np.asarray(prior, dtype=np.float64)
    if weights.shape != (len(models),) or not (weights > 0).all() or not np.isfinite(
            weights).all():
        raise ValueError(f"prior must give one weight above 0 per model ({len(models)}), got "
                         f"{list(weights)!r}")
    rows = np.stack([seat_params(m, m, rules) for m in models])
    return rows, np.log(weights / weights.sum())


def model_weights_of(lks: np.ndarray, log_prior: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each model's posterior weight: the particles' weights times each particle's
    posterior over the models (prior times the model's likelihood of the particle)."""
    terms = lks + log_prior
    terms = np.exp(terms - terms.max(axis=1, keepdims=True))
    terms /= terms.sum(axis=1, keepdims=True)
    return weights @ terms


def _inputs(history: History, my_hand: int, models: np.ndarray, log_prior: np.ndarray,
            rules: Rules, temperature: float, wait: float):
    """The kernels' ``(PublicHistory, Hidden, Likelihood, unseen mask)`` for a history,
    checked."""
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
    events = np.ascontiguousarray(history.events, dtype=np.int64).reshape(-1, 4)
    record = PublicHistory(events, int(history.dealer), int(history.upcard),
                           int(knock_limit_of(history, rules)))
    like = Likelihood(models, log_prior, np.zeros(len(models)), float(temperature),
                      float(np.log(wait)), rules.packed(), card_tables(rules))
    return record, Hidden(unseen_cards, n_hidden, held), like, unseen


def _particles(n: int, n_models: int) -> Particles:
    source = np.zeros((n, 52 + n_models), dtype=np.int64)
    return Particles(np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros(n), np.zeros(n),
                     source, np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros_like(source))


def _replay_work(events: int) -> Replay:
    return Replay(np.full(max(events, 1), -1, dtype=np.int64), new_board(),
                  np.zeros(3, dtype=np.uint64))


def _beliefs(parts: Particles, unseen: int, ess: float, log_prior: np.ndarray) -> Beliefs:
    lks = parts.source.view(np.float64)[:, 52:]
    return Beliefs(parts.hands.copy(), parts.weights.copy(), unseen, float(ess),
                   model_weights_of(lks, log_prior, parts.weights))


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
    models, log_prior = model_rows(model, prior, rules)
    record, hidden, like, unseen = _inputs(history, my_hand, models, log_prior, rules,
                                           temperature, wait)
    work = _replay_work(len(record.events))
    if uniform:
        hands = np.zeros(particles, dtype=np.int64)
        sample_beliefs_nb(np.uint64(seed), record, hidden, like, hands, np.zeros(particles),
                          work)
        weights = np.full(particles, 1.0 / particles)
        return Beliefs(hands, weights, unseen, float(particles), np.exp(log_prior))
    parts = _particles(particles, len(models))
    ess = smc_beliefs_nb(np.uint64(seed), record, hidden, like, moves, stages, parts, work)
    return _beliefs(parts, unseen, ess, log_prior)


class BeliefTracker:
    """The belief through one hand, carried from choice to choice as the mc player
    carries it: :meth:`update` at each of the decider's choices samples afresh the
    first time (as :func:`sample_beliefs`) and later moves the last particles on over
    the new events (:func:`~ginsim.simulator.belief.carry_nb.carry_beliefs_nb`),
    sampling afresh only when they cannot carry them. Arguments as
    :func:`sample_beliefs`."""

    def __init__(self, model: str | Strategy | Sequence[str | Strategy], rules: Rules,
                 particles: int, seed: int, temperature: float = TEMPERATURE,
                 moves: int = MOVES, stages: int = STAGES, wait: float = WAIT,
                 prior: Sequence[float] | None = None) -> None:
        self.models, self.log_prior = model_rows(model, prior, rules)
        self.rules, self.seed = rules, int(seed)
        self.temperature, self.moves, self.stages, self.wait = temperature, moves, stages, wait
        self.parts = _particles(int(particles), len(self.models))
        self._events: np.ndarray | None = None
        self.carried = 0  # updates that carried the particles forward

    def update(self, history: History, my_hand: int) -> Beliefs:
        """The guesses of the opponent's hand at this point of the hand."""
        record, hidden, like, unseen = _inputs(history, my_hand, self.models, self.log_prior,
                                               self.rules, self.temperature, self.wait)
        events = record.events
        work = _replay_work(len(events))
        seed = np.uint64(derived_seed(self.seed, len(events), BELIEF_STEP_STRIDE))
        ess = 0.0
        last = self._events
        if last is not None and len(last) <= len(events) and np.array_equal(
                events[:len(last)], last):
            ess = carry_beliefs_nb(seed, record, hidden, like, self.moves, len(last),
                                   self.parts, work)
            self.carried += ess > 0
        if ess == 0.0:
            ess = smc_beliefs_nb(seed, record, hidden, like, self.moves, self.stages,
                                 self.parts, work)
        self._events = events.copy()
        return _beliefs(self.parts, unseen, ess, self.log_prior)
