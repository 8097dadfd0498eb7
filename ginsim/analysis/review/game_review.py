"""A game reviewed: every decision of one seat weighed by the advisor from what that
seat knew (:mod:`.positions`), classed (:mod:`.classes`), summed up per game, and its
JSON (docs/review.md)."""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ...game.cards import format_cards
from ...game.inputs.checks import check_number
from ...game.rng_nb import check_seed
from ...game.rules import Rules
from ...simulator.limits import check_rollouts
from ...strategies.presets import Strategy, parse_strategy
from ...table.records.game_record import GameRecord
from ...table.records.record_reader import read_record
from ..advise import PRECISION_RANGE, opponent_model
from ..game_stats import advice_game_table
from .classes import BLUNDER, INACCURACY, MISTAKE, class_counts, error_rate
from .evaluate import (
    FIRST_ROLLOUTS,
    MOST_ROLLOUTS,
    PRECISION,
    Budget,
    ReviewedDecision,
    knock_chart_for,
    weigh,
)
from .seat_moves import SeatDecision, cards_text, seat_decisions

REVIEW_VERSION = 1  # the JSON's version: a key removed or changed in meaning raises it
DEFAULT_ROLLOUTS = FIRST_ROLLOUTS  # the advisor's first rollouts a decision
#: The opponent model where the record's other seat is no strategy (a person, a
#: program): the advisor's default opponent.
DEFAULT_MODEL = "simple"
Progress = Callable[[int, int], object]
THREADS = min(4, os.cpu_count() or 1)  # decisions weighed at once


@dataclass
class Review:
    """One seat's decisions in one game, weighed: ``decisions`` (those the advisor
    weighs), ``skipped`` (moves with nothing to weigh, and why), the ``model`` the
    opponent was played as, the rollouts a decision and the seconds spent."""

    seat: int
    seat_name: str
    rules: Rules
    model: str
    budget: Budget
    seed: int
    decisions: list[ReviewedDecision] = field(default_factory=list)
    skipped: list[tuple[SeatDecision, str]] = field(default_factory=list)
    seconds: float = 0.0
    knock_chart: str | None = None

    @property
    def held_out_losses(self) -> np.ndarray:
        """Each decision's held-out loss, which the error rate averages."""
        return np.array([d.held_out for d in self.decisions], dtype=float)

    def summary(self) -> dict:
        """Decisions, the error rate (mean loss a decision, 95% interval robust to the
        correlation of a hand's decisions) and the count
        per class per kind; also the game-win loss's mean where the advisor gives it,
        and the knock decisions beside the knock card's answer."""
        mean, low, high = error_rate(self.held_out_losses,
                                     [d.decision.hand_number for d in self.decisions])
        games = [d.game_loss for d in self.decisions if d.game_loss is not None]
        return {"decisions": len(self.decisions), "mean_loss": _num(mean),
                "ci": [_num(low), _num(high)],
                "classes": class_counts([d.klass for d in self.decisions],
                                        [d.kind for d in self.decisions]),
                "mean_game_loss": _num(float(np.mean(games))) if games else None,
                "mean_rollouts": _num(float(np.mean([d.rollouts for d in self.decisions]))
                                      if self.decisions else float("nan")),
                "widest_half": _num(max((widest_half(d) for d in self.decisions),
                                        default=float("nan"))),
                **self.loss_precision(),
                "skipped": len(self.skipped),
                "knock_card": self.knock_chart,
                "knocks": [knock_row(d) for d in self.decisions if d.kind == "knock"]}

    def loss_precision(self) -> dict:
        """How well the losses classed are known: the median and widest half 95%
        interval of a decision's loss (the option chosen against the best of the others),
        and the share of decisions within the review's precision."""
        halves = np.array([d.loss_half for d in self.decisions], dtype=float)
        if len(halves) == 0:
            return {"loss_half_median": None, "loss_half_widest": None,
                    "within_precision": None}
        bound = self.budget.precision
        return {"loss_half_median": _num(float(np.median(halves))),
                "loss_half_widest": _num(float(halves.max())),
                "within_precision": None if bound is None
                else _num(float(np.mean(halves <= bound + 1e-9)))}

    def to_json(self) -> dict:
        """The review as JSON-able data (docs/review.md's contract)."""
        return {"version": REVIEW_VERSION, "seat": self.seat, "seat_name": self.seat_name,
                "rules": self.rules.spec(), "model": self.model,
                "rollouts": self.budget.rollouts, "precision": self.budget.precision,
                "max_rollouts": self.budget.max_rollouts,
                "seed": self.seed, "seconds": round(self.seconds, 2),
                "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE,
                               "blunder": BLUNDER},
                "decisions": [decision_json(k, d) for k, d in enumerate(self.decisions, 1)],
                "summary": self.summary()}


def _num(value: float) -> float | None:
    return None if value != value else round(float(value), 4)  # NaN: null


def widest_half(d: ReviewedDecision) -> float:
    """The widest half 95% interval among a decision's options (points)."""
    return max((o.high - o.low) / 2 for o in d.options)


def knock_row(d: ReviewedDecision) -> dict:
    """A knock decision: what the seat did, what the advisor's best does, and the knock
    card's cell (knock or play on each)."""
    return {"hand": d.decision.hand_number + 1, "stock_left": d.decision.stock_left,
            "chosen": "knock" if d.options[d.chosen].knock else "play on",
            "advisor": "knock" if d.best.knock else "play on",
            "knock_card": d.knock_card}


def decision_json(index: int, d: ReviewedDecision) -> dict:
    """One decision's JSON: what was chosen, the best, the loss, its class, every option
    with its value, and the position as the seat saw it."""
    s = d.decision
    return {"index": index, "hand": s.hand_number + 1, "kind": d.kind,
            "chosen": d.options[d.chosen].move, "best": d.best.move,
            "loss": round(d.loss, 4), "held_out_loss": round(d.held_out, 4),
            "loss_ci": [round(max(0.0, d.options[d.chosen].loss_low), 4),
                        round(d.options[d.chosen].loss_high, 4)],
            "game_loss": None if d.game_loss is None else round(d.game_loss, 5),
            "class": d.klass, "knock_card": d.knock_card, "rollouts": d.rollouts,
            "options": [{"move": o.move, "value": round(o.value, 4),
                         "ci": [round(o.low, 4), round(o.high, 4)],
                         "loss_ci": [round(o.loss_low, 4), round(o.loss_high, 4)],
                         "game_win": None if o.game_win is None else round(o.game_win, 5)}
                        for o in d.options],
            "position": {"hand": cards_text(s.hand),
                         "drawn": None if s.drawn is None else format_cards([s.drawn]),
                         "pile_top": None if s.pile_top is None
                         else format_cards([s.pile_top]),
                         "stock_left": s.stock_left, "score": list(s.score),
                         "opponent_took": cards_text(s.opponent_took),
                         "history": s.history}}


def review_game(record: GameRecord | str | os.PathLike, seat: int | str | None = None, *,
                rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0,
                progress: Progress | None = None, model: str | Strategy | None = None,
                precision: float | None = PRECISION,
                max_rollouts: int = MOST_ROLLOUTS, jobs: int | None = None) -> Review:
    """Weigh every decision of ``seat`` (0, 1 or the seat's name; default: the seat of a
    transcript, else the one person at the table, else seat 0) in a game record (a
    :class:`GameRecord` or a path, read by ``read_record``) with ``rollouts`` advisor
    rollouts each, the opponent played as ``model`` (default: its strategy in the
    record, else :data:`DEFAULT_MODEL`), then more until every option's loss (its
    shortfall from the best, paired in the same worlds) is known within ``precision``
    points either side (None: no more), ``max_rollouts`` at
    most. ``jobs`` decisions are weighed at once (threads; default :data:`THREADS`).
    ``progress(done, total)`` is called after each decision. Every advisor seed derives
    from ``seed``, the hand and the decision's place in it: a review repeats."""
    if not isinstance(record, GameRecord):
        record = read_record(record)
    if precision is not None:
        precision = check_number(precision, "precision", *PRECISION_RANGE)
    budget = Budget(check_rollouts(rollouts), precision,
                    max(check_rollouts(max_rollouts), rollouts))
    seed = check_seed(seed)
    seat = pick_seat(record, seat)
    opponent = _model(record, seat, model)
    chart = knock_chart_for(record.rules)
    review = Review(seat, str(record.seats[seat].get("name") or f"seat {seat}"),
                    record.rules, opponent.spec, budget, seed,
                    knock_chart=None if chart is None else chart.name)
    moves = list(seat_decisions(record, seat))
    t0 = time.perf_counter()
    _warm_game_table(record.rules)

    def one(k: int) -> ReviewedDecision | str:
        return weigh(moves[k], record.rules, opponent, budget,
                     decision_seed(seed, moves[k].hand_number, k), chart)

    # the advisor's kernels release the GIL: decisions weighed side by side, in order
    with warnings.catch_warnings(), ThreadPoolExecutor(max(1, jobs or THREADS)) as pool:
        warnings.simplefilter("ignore")  # a low ESS is the belief's, stated in its table
        for k, weighed in enumerate(pool.map(one, range(len(moves)))):
            if isinstance(weighed, str):
                review.skipped.append((moves[k], weighed))
            else:
                review.decisions.append(weighed)
            if progress is not None:
                progress(k + 1, len(moves))
    review.seconds = time.perf_counter() - t0
    return review


def _warm_game_table(rules: Rules) -> None:
    """The advisor's game table for ``rules`` made (or read) once, before the threads
    that need it start."""
    try:
        advice_game_table(rules)
    except ValueError:  # rules without a game: the advisor says so at the first decision
        pass


def decision_seed(seed: int, hand: int, k: int) -> int:
    """The advisor's seed for the ``k``-th move of the review, in hand ``hand``."""
    return int(np.random.SeedSequence((seed, hand, k)).generate_state(2, np.uint64)[0])


def pick_seat(record: GameRecord, seat: int | str | None) -> int:
    """The seat reviewed: 0 or 1, a seat's name, or by default the transcript's seat,
    else the one seat with no strategy (a person), else seat 0."""
    names = [str(s.get("name")) for s in record.seats]
    if seat is None:
        if record.seat is not None:
            return record.seat
        people = [s for s in (0, 1) if record.seats[s].get("spec") is None]
        return people[0] if len(people) == 1 else 0
    if isinstance(seat, str) and not seat.isdigit():
        if seat not in names:
            raise ValueError(f"seat {seat!r}: the record's seats are 0 ({names[0]}) and 1 "
                             f"({names[1]})")
        index = names.index(seat)
    elif str(seat) not in ("0", "1"):
        raise ValueError(f"seat {str(seat)[:20]!r}: a seat is 0, 1 or a seat's name "
                         f"({names[0]}, {names[1]})")
    else:
        index = int(seat)
    if record.seat is not None and index != record.seat:
        raise ValueError(f"a transcript holds seat {record.seat}'s view only: review seat "
                         f"{record.seat}")
    return index


def _model(record: GameRecord, seat: int, model: str | Strategy | None) -> Strategy:
    """The opponent as the advisor plays it: ``model``, else the other seat's strategy
    (an mc bot as the plain strategy it plays on with), else :data:`DEFAULT_MODEL`."""
    if model is not None:
        return opponent_model(model)[0]
    spec = record.seats[1 - seat].get("spec")
    if not isinstance(spec, str) or spec.startswith("exec:"):
        return parse_strategy(DEFAULT_MODEL)
    try:
        return opponent_model(spec)[0]
    except ValueError:
        return parse_strategy(DEFAULT_MODEL)
