"""The belief's named data: what the kernels of :mod:`ginsim.simulator.belief.sample_nb` take
about a history, the opponent's unseen cards, the models that score its choices, the
particles and the replay's work arrays. Namedtuples, which numba passes and reads by
field; the Python layer (:mod:`ginsim.simulator.belief.posterior`) and the mc seat
(:mod:`ginsim.simulator.search.mc_guesses_nb`) make them from their arrays.
"""

from __future__ import annotations

from collections import namedtuple

#: The public record seen from the deciding seat: ``events`` int64[n, 4] rows ``(seat,
#: kind, card, flag)`` of :mod:`ginsim.game.history` (seat 0 the decider, 1 the
#: opponent), who dealt (0/1), the upcard (-1: none, the eleven-card deal) and the
#: hand's knock limit.
PublicHistory = namedtuple("PublicHistory", ("events", "dealer", "upcard", "knock_limit"))

#: The opponent's cards as the decider sees them: ``unseen_cards`` (int64, the cards it
#: has not seen; shuffled in place), how many of the opponent's cards are hidden, and
#: ``held``, the mask of the pile cards the opponent took and still holds.
Hidden = namedtuple("Hidden", ("unseen_cards", "n_hidden", "held"))

#: What scores the opponent's choices: the models' row pairs (float64[k, 2, P_SIZE],
#: row 1 the model), their log prior weights, a buffer of one log likelihood per model,
#: the softening temperature, log(wait), the packed rules and the card tables.
Likelihood = namedtuple("Likelihood", (
    "models", "log_prior", "lk", "temperature", "log_wait", "rules", "tab"))

#: The particles: each guess's hand now, log likelihood, log prior/proposal weight,
#: normalised weight and draw-order row (``source``: int64[n, 52 + models], each model's
#: log likelihood as float64 bits in ``source[:, 52 + k]``), and the resampling copies.
Particles = namedtuple("Particles", (
    "hands", "logl", "base", "weights", "source", "tmp_hands", "tmp_logl", "tmp_source"))

#: The replay's work: a card per stock event (int64[events]), a board (a hand state to
#: replay the history on with its scratch, :class:`~ginsim.game.state.Board`), and its
#: random streams (uint64[3]).
Replay = namedtuple("Replay", ("ev_card", "board", "rng"))
