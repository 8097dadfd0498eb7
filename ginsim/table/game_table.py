"""A game at the Table: hands to the rules' target with the game scoring kernel.

:class:`GameDeals` is the one Python game loop's state: game ``g`` of a seed, its deals
(the game kernels' own: their game key, cut and seat streams), its dealer after each
hand and its tally, with the hand limit. The referee (:mod:`ginsim.table.referee`) and
:class:`TableGame` (``ginsim play``) both play their games through it.

:class:`TableGame` deals hand after hand (:class:`~ginsim.table.table.Table`), enters
each in the game's :class:`~ginsim.game.scoring.game_scoring.GameTally` (the game schedulers'
scoring kernel), and moves
the deal as the rules say (``next_dealer``; a dead hand is dealt again by the same
dealer). Seat 1 is a ginsim :class:`~ginsim.table.agents.Agent`; seat 0 plays through
:meth:`TableGame.apply`. The bot reads its messages (its cards, the moves it sees) when it
is next to move, in the order they came, so it plays as if it read each at once; until
then it runs no kernel (``ginsim play`` shows your first hand while the bot's kernels
still compile). ``ginsim play`` is this game in the terminal; :meth:`TableGame.record`
is the game's record (docs/records.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..game.rules import NEXT_DEALER_MODES, Rules
from ..game.scoring.game_scoring import GameScore, GameTally
from ..simulator.limits import MAX_GAME_HANDS
from ..simulator.play.games_nb import first_dealer_nb, game_key_nb, next_dealer_nb
from .actions import Action
from .agents import Agent, decide_message, hand_message
from .records.game_record import end_line, hand_lines, hand_result, header_line, write_record
from .table import Table, view_event


def first_dealer(seed: int) -> int:
    """Who deals the first hand of a game of ``seed`` (1: the bot, so you are offered the
    upcard first): game 0 of ``ginsim games --seed``'s cut."""
    return int(first_dealer_nb(np.uint64(int(seed)), 0))


class GameDeals:
    """Game ``g`` under ``seed``: each hand's Table in turn (the game kernels' deals and
    first dealer), entered in the game's tally, the deal moved as the rules say (a dead
    hand is dealt again by the same dealer), until a side reaches the target or
    :data:`~ginsim.simulator.limits.MAX_GAME_HANDS` hands were dealt."""

    def __init__(self, rules: Rules, seed: int, g: int = 0) -> None:
        self.rules, self.g = rules, g
        self.tally = GameTally(rules)
        self.game_key = int(game_key_nb(np.uint64(seed), g))
        self.dealer = int(first_dealer_nb(np.uint64(seed), g))
        self.hands = 0  # hands dealt and entered
        self._mode = NEXT_DEALER_MODES.index(rules.next_dealer)

    @property
    def won(self) -> bool:
        """Whether a side has reached the target."""
        return self.tally.over

    @property
    def at_limit(self) -> bool:
        """Whether the game has dealt its :data:`~ginsim.simulator.limits.MAX_GAME_HANDS`
        hands without a winner."""
        return not self.tally.over and self.hands >= MAX_GAME_HANDS

    def deal(self) -> Table:
        """The next hand's Table."""
        return Table(self.rules, self.game_key, self.hands, self.dealer)

    def tables(self, stop_at_limit: bool = False,
               deal: Callable[[], Table] | None = None) -> Iterator[Table]:
        """The one game loop: each hand's Table (from ``deal``, by default :meth:`deal`)
        until a side reaches the target; the caller plays each out and enters it
        (:meth:`enter`) before asking for the next. Past
        :data:`~ginsim.simulator.limits.MAX_GAME_HANDS` hands the game stops
        (``stop_at_limit``) or is a ValueError."""
        while not self.won:
            if self.at_limit:
                if stop_at_limit:
                    return
                raise ValueError(f"game {self.g} did not end in {MAX_GAME_HANDS} hands")
            dealt = self.hands
            yield (deal or self.deal)()
            if self.hands == dealt:
                raise RuntimeError("a hand of the game loop was not entered")

    def enter(self, table: Table) -> tuple[int, int]:
        """Enter the finished hand ``table`` and move the deal; the points before it."""
        before = self.tally.points
        result = hand_result(table.hs)
        self.tally.enter(result)
        self.hands += 1
        self.dealer = int(next_dealer_nb(self.dealer, result.winner, self._mode))
        return before


class TableGame:
    """A standard game between a player (seat 0) and a bot (seat 1) to the rules' target."""

    def __init__(self, bot: str, rules: Rules | str = "modern", seed: int = 0,
                 target: int | None = None) -> None:
        self.rules = Rules.coerce(rules)
        if target is not None:
            self.rules = replace(self.rules, target=int(target))
        self.rules.check_games()
        self.bot = Agent.from_spec(bot, self.rules, seed)
        self.bot_spec = bot
        self.seed = int(seed)
        self.deals = GameDeals(self.rules, self.seed)  # game 0 of ``ginsim games --seed``
        self.tally = self.deals.tally
        self.table: Table | None = None
        self.over = False
        self.player = "you"  # seat 0's name in the record
        self._lines: list[dict] = []  # the finished hands' record lines
        self._finished = True  # the current table's hand is entered
        self._inbox: list[dict] = []  # the bot's messages, read at its next move

    @property
    def hands_played(self) -> int:
        """Hands finished so far."""
        return self.deals.hands

    @property
    def dealer(self) -> int:
        """Who deals the hand under way, or the next one."""
        return self.deals.dealer

    @property
    def game_key(self) -> int:
        """The key the game's hands are dealt from."""
        return self.deals.game_key

    @property
    def points(self) -> tuple[int, int]:
        """Each seat's hand points so far toward the target."""
        return self.tally.points

    def deal(self) -> Table:
        """Deal the next hand and tell the bot its cards (read at its next move)."""
        self.table = self.deals.deal()
        self._finished = False
        self._inbox.append(hand_message(self.table, 1, 0, self.points))
        return self.table

    def hands(self) -> Iterator[Table]:
        """Each hand of the game, dealt by :meth:`deal`, through the one game loop
        (:meth:`GameDeals.tables`); the caller plays it out, and it is entered
        (:meth:`finish_hand`) when the caller asks for the next. A caller that stops
        early leaves the hand under way unentered."""
        for table in self.deals.tables(stop_at_limit=True, deal=self.deal):
            yield table
            self.finish_hand()

    def bot_move(self) -> list[dict]:
        """The bot's move, applied, after it read its messages; returns its events."""
        table = self.table
        inbox, self._inbox = self._inbox, []
        for message in inbox:
            self.bot.handle(message)
        reply = self.bot.handle(decide_message(table))
        return self._apply(Action.from_message(reply or {}), 1)

    def apply(self, action: Action | str) -> list[dict]:
        """The player's move (raises IllegalAction, changing nothing, when illegal)."""
        return self._apply(action, 0)

    def _apply(self, action: Action | str, seat: int) -> list[dict]:
        events = self.table.apply(action, seat)
        self._inbox += [view_event(event, 1) for event in events]
        return events

    def finish_hand(self) -> None:
        """Enter the finished hand in the game's scoring and move the deal."""
        before = self.deals.enter(self.table)
        self._lines += hand_lines(self.table, before, self.points)
        self._finished = True
        self.over = self.deals.won or self.deals.at_limit

    def score(self) -> GameScore:
        """The finished game: winner, points, boxes and totals with every bonus."""
        return self.tally.score()

    def record(self, stopped: str = "") -> list[dict]:
        """The game's record so far (docs/records.md): header, every hand dealt (the one
        under way without its showdown) and the end line (the score, or ``stopped``)."""
        seats = [{"name": self.player, "spec": None}, {"name": "bot", "spec": self.bot_spec}]
        lines = [header_line(self.rules, self.seed, 0, seats), *self._lines]
        if self.table is not None and not self._finished:
            lines += hand_lines(self.table, self.points)
        if self.tally.over:
            return [*lines, end_line(self.score())]
        if self.over:  # MAX_GAME_HANDS hands without a winner
            stopped = f"no winner after {self.hands_played} hands"
        return [*lines, end_line(stopped=stopped or "the game was stopped before its end")]

    def write_record(self, path: str | os.PathLike, stopped: str = "") -> Path:
        """Write :meth:`record` to ``path`` (whole or not at all)."""
        return write_record(path, self.record(stopped))
