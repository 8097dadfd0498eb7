"""One decision of a seat weighed by the advisor (:func:`ginsim.analysis.advise.advise`)
from what the seat knew, and the knock card's answer beside a knock decision."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...game.cards import format_cards
from ...game.rules import Rules
from ...simulator.branches.advisor_worlds import NotAnOption
from ...strategies.charts.equilibria import shipped_equilibrium
from ...strategies.grid_nb import grid_cell_nb
from ...strategies.presets import Strategy
from ..advise import advise
from ..knock.equilibrium import ANSWER_BASE
from ..knock.knock_card import cell_action
from .classes import classify
from .seat_moves import SeatDecision

#: The record's moves as the advisor's option actions.
CHOSEN_ACTIONS = {"take": "take", "pile": "take", "stock": "stock", "pass": "pass",
                  "discard": "discard", "knock": "knock"}
#: The review's precision: rollouts are spent, in batches, until the loss of the option
#: chosen (its shortfall from the best of the others, or its lead where it is the best;
#: the options played in the same worlds) is known within this many points either side
#: (or the most rollouts are spent).
PRECISION = 1.5
FIRST_ROLLOUTS = 2000  # the advisor's first batch of rollouts a decision
MOST_ROLLOUTS = 32_000  # the most rollouts a decision is weighed with


@dataclass(frozen=True)
class Budget:
    """The advisor's rollouts a decision: ``rollouts`` first, then more until each
    option's loss interval is at most ``precision`` points either side (None: no
    more), at most ``max_rollouts`` in all."""

    rollouts: int
    precision: float | None = PRECISION
    max_rollouts: int = MOST_ROLLOUTS


@dataclass(frozen=True)
class Option:
    """One option of a decision: its words, expected points (95% interval) and chance
    of winning the game (None where the advisor does not give it)."""

    move: str
    value: float
    low: float
    high: float
    game_win: float | None
    knock: bool
    loss_low: float  # the 95% interval of its loss against the best
    loss_high: float


@dataclass(frozen=True)
class ReviewedDecision:
    """A decision weighed: the seat's view, its kind, the options (best first), the one
    chosen, its loss in points (and in chance of winning the game), its class, and for
    a knock decision the knock card's answer; the rollouts spent."""

    decision: SeatDecision
    kind: str
    options: tuple[Option, ...]
    chosen: int  # index in options
    loss: float
    game_loss: float | None
    klass: str
    knock_card: str | None  # KNOCK, wait or either: the shipped card's cell
    rollouts: int  # the advisor's rollouts spent on it

    @property
    def best(self) -> Option:
        return self.options[0]

    loss_half: float  # the half 95% interval the precision bounds (see PRECISION)
    held_out: float  # the loss measured apart from the pick of the best (advise)


def skip_reason(decision: SeatDecision) -> str | None:
    """Why the advisor has nothing to weigh at a move (None when it has)."""
    if decision.action == "big_gin":
        return "big gin ends the hand at once: nothing to weigh"
    if decision.stage == "discard" and decision.drawn is None:
        return "the first discard of the eleven-card deal follows no draw"
    return None


def weigh(decision: SeatDecision, rules: Rules, model: Strategy, budget: Budget, seed: int,
          knock_chart=None) -> ReviewedDecision | str:
    """The decision weighed by the advisor's rollouts against ``model``: ``budget``'s
    first batch, then batches until the loss of the option chosen (against the best of
    the others) is known within its precision, each option also valued in the game
    from the score; the reason (text) where there is nothing to weigh: one option, or a
    position the advisor refuses."""
    reason = skip_reason(decision)
    if reason is not None:
        return reason
    try:
        frame = _advice(decision, rules, model, budget, seed)
    except NotAnOption:
        raise ValueError(f"hand {decision.hand_number + 1}: the move {decision.action} "
                         f"is not one of the advisor's options here") from None
    except ValueError as exc:
        return f"the advisor has no options here ({exc})"
    if len(frame) < 2:
        return "one legal move"
    return _weighed(decision, frame, knock_chart)


def _advice(decision: SeatDecision, rules: Rules, model: Strategy, budget: Budget,
            seed: int) -> pd.DataFrame:
    """The advisor's table of the decision, valued in the game from its score."""
    return advise(" ".join(format_cards([c]) for c in decision.hand),
                  drawn=None if decision.drawn is None else format_cards([decision.drawn]),
                  drawn_from=decision.drawn_from if decision.drawn is not None else "stock",
                  history=decision.history, rules=rules, opponent=model,
                  rollouts=budget.rollouts, seed=seed,
                  score=None if rules.game_problem() else decision.score,
                  precision=budget.precision, precision_of="losses",
                  chosen=(CHOSEN_ACTIONS[decision.action],
                          format_cards([decision.card]) if decision.card >= 0 else None),
                  max_rollouts=max(budget.max_rollouts, budget.rollouts))


def _weighed(decision: SeatDecision, frame: pd.DataFrame, knock_chart) -> ReviewedDecision:
    chosen = chosen_row(frame, decision)
    wins = frame["game_win"] if "game_win" in frame else None
    options = tuple(Option(str(r.option), float(r.expected_points), float(r.low),
                           float(r.high), None if wins is None else float(wins.iloc[i]),
                           bool(r.knock), float(r.loss_low), float(r.loss_high))
                    for i, r in enumerate(frame.itertuples()))
    best, mine = options[0], options[chosen]
    loss = max(0.0, best.value - mine.value)
    game_loss = None
    if wins is not None:
        game_loss = max(0.0, float(np.nanmax(wins.to_numpy(dtype=float))) - mine.game_win)
    knocks = bool(frame["knock"].any())
    kind = "knock" if decision.stage == "discard" and knocks else decision.stage
    klass = classify(loss, chosen == 0, mine.value >= best.low or mine.loss_low <= 0)
    rollouts = int(frame["rollouts"].iloc[0])
    card = knock_answer(decision, frame, knock_chart) if kind == "knock" else None
    versus = options[chosen if chosen != 0 else 1]  # the best, or for it the runner-up
    return ReviewedDecision(decision, kind, options, chosen, loss, game_loss, klass, card,
                            rollouts, (versus.loss_high - versus.loss_low) / 2,
                            float(frame["loss_held_out"].iloc[chosen]))


def chosen_row(frame: pd.DataFrame, decision: SeatDecision) -> int:
    """The row of the advisor's table that is the move made (ValueError if none is: the
    advisor and the record disagree on the legal moves)."""
    action = CHOSEN_ACTIONS[decision.action]
    match = frame["action"] == action
    if action in ("discard", "knock"):
        match &= frame["discard"] == format_cards([decision.card])
    rows = np.flatnonzero(match.to_numpy())
    if len(rows) != 1:
        raise ValueError(f"hand {decision.hand_number + 1}: the move {decision.action} "
                         f"{'' if decision.card < 0 else format_cards([decision.card])} is "
                         f"not one of the advisor's options here")
    return int(rows[0])


def knock_chart_for(rules: Rules):
    """The shipped equilibrium knock chart for ``rules`` (the knock answer's card play,
    else memory2's), or None where none is shipped for these hand rules."""
    shipped = shipped_equilibrium(rules, ANSWER_BASE) or shipped_equilibrium(rules)
    return None if shipped is None else shipped[1]


def knock_answer(decision: SeatDecision, frame: pd.DataFrame, chart) -> str | None:
    """The knock card's cell for the lowest-deadwood knock of a knock decision:
    ``KNOCK``, ``wait`` or ``either`` (gin always goes down: ``KNOCK``)."""
    if chart is None:
        return None
    deadwood = int(frame.loc[frame["knock"], "deadwood"].min())
    if deadwood == 0:
        return "KNOCK"
    cell = grid_cell_nb(deadwood, decision.stock_left, decision.opponent_takes)
    return cell_action(float(chart.p.reshape(-1)[cell]))
