"""The advisor's worlds: every option of a position played out in batches of sampled
worlds, pooled, with the standard errors that say how well each option's value, and
each option's shortfall from the best (the options played in the same worlds), are
known; more batches are spent until the error that matters is small enough."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...game.cards import card_from_text
from ...game.inputs.checks import check_choice
from ..search.rollouts_nb import OPT_DISCARD, OPT_PASS, OPT_STOCK, OPT_TAKE

BATCH_STRIDE = 0x2545F4914F6CDD1D  # batch k of a spending samples from seed + k * this
PRECISION_OF = ("values", "losses")  # the errors a spending may narrow
#: The option kinds of the advisor's ``action`` words (a knock is a discard that knocks).
CHOSEN_KINDS = {"take": OPT_TAKE, "stock": OPT_STOCK, "pass": OPT_PASS,
                "discard": OPT_DISCARD, "knock": OPT_DISCARD}


class NotAnOption(ValueError):
    """The option chosen (``chosen``) is not one of the position's options."""


@dataclass
class Worlds:
    """What batches of rollouts gave: the options, per world and option the net points,
    flags and hand points, each world's opponent deadwood, the ESS, the samples
    (guesses or worlds), the posterior run of each world (or None) and the dealer."""

    options: np.ndarray
    net: np.ndarray
    flags: np.ndarray
    points: np.ndarray
    opp_deadwood: np.ndarray
    ess: float
    samples: int
    runs: np.ndarray | None
    dealer: int | None


def spend_worlds(batch: Callable[[int, int], Worlds], rollouts: int, seed: int,
                 target: float | None, max_rollouts: int,
                 widest: Callable[[Worlds], float]) -> Worlds:
    """The first batch of ``rollouts`` worlds (``batch(n, seed)``), then, for a
    ``target`` standard error, more batches (seeds of their own) until ``widest(worlds)``
    (the largest standard error that must shrink) is within it or ``max_rollouts``
    worlds are played."""
    worlds = batch(rollouts, seed)
    spent = [worlds]
    done = rollouts
    while target is not None and done < max_rollouts:
        error = widest(worlds)
        if error <= target:
            break
        # the worlds needed if the spread holds, at most doubling (the spread of the
        # posterior's runs is itself rough), at least half a first batch; a posterior's
        # batch at most a first batch's size: its worlds resample a bounded number of
        # guesses, so what narrows the error is more runs, not more worlds a run
        more = int(np.ceil(done * ((error / target) ** 2 - 1) * 1.1))
        most = done if worlds.runs is None else rollouts
        more = min(max(more, rollouts // 2, 2), most, max_rollouts - done)
        spent.append(batch(more, (seed + len(spent) * BATCH_STRIDE) % 2**64))
        done += more
        worlds = pooled_batches(spent)
    return worlds


def pooled_batches(spent: list[Worlds]) -> Worlds:
    """Batches of worlds as one: each batch's posterior runs kept apart."""
    first = spent[0]
    runs = None
    if first.runs is not None:
        offset, parts = 0, []
        for w in spent:
            parts.append(w.runs + offset)
            offset += int(w.runs.max()) + 1
        runs = np.concatenate(parts)
    return Worlds(first.options, *(np.concatenate([getattr(w, name) for w in spent])
                                   for name in ("net", "flags", "points", "opp_deadwood")),
                  sum(w.ess for w in spent), sum(w.samples for w in spent), runs,
                  first.dealer)


def standard_errors(net: np.ndarray, runs: np.ndarray | None = None) -> np.ndarray:
    """Each option's standard error of its mean over the worlds (rows of ``net``): as if
    the worlds were independent, or, where they come from several posterior runs
    (``runs``, the run of each world), the larger of that and the spread of the runs'
    means, which also holds how far one run's guesses of the opponent's hand may be
    from another's."""
    se = net.std(axis=0, ddof=1) / np.sqrt(net.shape[0])
    if runs is None or len(np.unique(runs)) < 2:
        return se
    means = np.stack([net[runs == k].mean(axis=0) for k in np.unique(runs)])
    return np.maximum(se, means.std(axis=0, ddof=1) / np.sqrt(len(means)))


def loss_errors(net: np.ndarray, runs: np.ndarray | None = None) -> np.ndarray:
    """Each option's standard error of its shortfall from the option of the highest mean
    (0 for that one): of the per-world differences of two options played in the same
    worlds, so far smaller than the values' own where the world moves both alike."""
    best = int(np.argmax(net.mean(axis=0)))
    return standard_errors(net[:, [best]] - net, runs)


def narrowed_error(precision_of: str, chosen: tuple[str, str | None] | None = None
                   ) -> Callable[[Worlds], float]:
    """The error a spending narrows: each option's value's (``"values"``), each option's
    loss's (``"losses"``), or with ``chosen`` that one option's loss's."""
    check_choice(precision_of, "precision_of", PRECISION_OF)
    if precision_of == "values":
        return widest_value_error
    return widest_loss_error if chosen is None else chosen_loss_error(chosen)


def held_out_losses(net: np.ndarray, runs: np.ndarray | None = None) -> np.ndarray:
    """Each option's loss with the best picked on one half of the worlds and the loss
    measured on the other (both ways, averaged): free of the bias of picking the best
    by the same noise that measures it, which makes a plain loss look larger than it
    is (the best of several noisy values is too high). Halves by posterior run where
    the worlds come from several (a run's worlds share guesses), else alternate worlds.
    May be below 0 for an option as good as the best."""
    folds = (runs if runs is not None and len(np.unique(runs)) >= 2
             else np.arange(net.shape[0])) % 2
    if net.shape[0] < 2 or not (folds == 0).any() or not (folds == 1).any():
        return net.mean(axis=0).max() - net.mean(axis=0)
    halves = [net[folds == k].mean(axis=0) for k in (0, 1)]
    picked = [int(np.argmax(h)) for h in halves]
    return ((halves[1][picked[0]] - halves[1]) + (halves[0][picked[1]] - halves[0])) / 2


def widest_value_error(worlds: Worlds) -> float:
    """The largest standard error of an option's value."""
    return float(np.max(standard_errors(worlds.net, worlds.runs)))


def widest_loss_error(worlds: Worlds) -> float:
    """The largest standard error of an option's loss against the best."""
    return float(np.max(loss_errors(worlds.net, worlds.runs)))


def chosen_loss_error(chosen: tuple[str, str | None]) -> Callable[[Worlds], float]:
    """The standard error of one option's loss against the best of the others (its
    shortfall, or where it is the best, its lead over the runner-up); ``chosen`` is
    an action word of :data:`CHOSEN_KINDS` and its card (None for a draw or a pass)."""
    action, card = chosen
    check_choice(action, "chosen", tuple(CHOSEN_KINDS))

    def error(worlds: Worlds) -> float:
        options = worlds.options
        match = options[:, 0] == CHOSEN_KINDS[action]
        if CHOSEN_KINDS[action] == OPT_DISCARD:
            match &= (options[:, 1] == card_from_text(card or "")) & (
                (options[:, 2] != 0) == (action == "knock"))
        if not match.any():
            raise NotAnOption(f"chosen {action} {card or ''}: not one of the options here")
        mine = int(np.flatnonzero(match)[0])
        mean = worlds.net.mean(axis=0)
        mean[mine] = -np.inf
        other = int(np.argmax(mean)) if len(mean) > 1 else mine
        return float(standard_errors(worlds.net[:, [other]] - worlds.net[:, [mine]],
                                     worlds.runs)[0])
    return error
