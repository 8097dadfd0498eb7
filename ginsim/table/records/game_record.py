"""Game records: one game as versioned JSON lines (docs/records.md).

``ginsim play``, ``ginsim match --record DIR`` and the Table API
(:meth:`~ginsim.table.game_table.TableGame.record`, :func:`table_record` for one
:class:`~ginsim.table.table.Table`) write them;
:func:`~ginsim.table.record_reader.read_record` reads one back, or a protocol
transcript of one seat, and replays every hand through the hand machine: each action
must be legal where it stands, the
showdown and the running scores must be the machine's. A record that is damaged or
describes no possible game is refused with a :class:`RecordError`, one line naming the
line of the file and the reason.

The lines, in order: a ``header`` (format, version, rules, seed, game, seats); per
hand a ``deal`` (dealer, both hands, upcard, stock, scores before), its ``action``
lines (the protocol's events, stock draws with their card) and a ``showdown`` (the
Table's result and the scores after); last an ``end`` (the game's score, or why it
stopped).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..._version import __version__
from ...game.cards import sort_key
from ...game.inputs.checks import is_int
from ...game.inputs.files import write_text_atomic
from ...game.rules import Rules
from ...game.scoring.game_scoring import GameScore, HandResult
from ...game.state import RES_OUTCOME, RES_POINTS, ST_DECK, ST_MULTIPLIER
from ..actions import TEXT, Action, card_of
from ..protocol import ProtocolError, decode, encode
from ..table import Table

#: The ``format`` of a record's header line, and the version this ginsim writes and reads.
RECORD_FORMAT = "ginsim-game"
RECORD_VERSION = 1
#: The most bytes a record file may hold (a 400-hand game is a few MB).
MAX_RECORD_BYTES = 64 << 20


class RecordError(ValueError):
    """A record refused: one line, ``line N: reason`` (the reason alone when the file
    itself cannot be read: ``line`` 0)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass
class RecordedHand:
    """One hand of a replayed record: its number, dealer, the deal (card ints; the
    stock in draw order, as far as the record gives it), its actions (the protocol's
    event dicts), the showdown (:meth:`Table.result`, None when the hand was not
    finished) and the game's hand points after it. In a transcript the other seat's
    cards are unknown: its hand is empty, the stock is empty and its stock draws show
    no card."""

    number: int
    dealer: int
    hands: tuple[list[int], list[int]]
    upcard: int | None
    stock: list[int]
    actions: list[dict] = field(default_factory=list)
    result: dict | None = None
    scores: tuple[int, int] = (0, 0)

    def table(self, rules: Rules | str) -> Table:
        """A fresh Table dealt this hand (a whole record's hand, not a transcript's)."""
        return Table.from_deal(rules, self.hands, self.upcard, self.stock, self.dealer,
                               hand=self.number)

    def walk(self, rules: Rules | str) -> Iterator[tuple[Table, int, Action]]:
        """Each move of the hand with the Table just before it: (table, seat, move), the
        move as the Table takes it (the final discard taken to knock is one move); the
        move is applied when the walk resumes. For reviewing the hand decision by
        decision."""
        table = self.table(rules)
        events = iter(self.actions)
        for event in events:
            if event["action"] == "pile" and table.phase == "last_discard":
                event = next(events)
            card = card_of(event["card"]) if event["action"] in ("discard", "knock") else -1
            move = Action(event["action"], card)
            yield table, event["seat"], move
            table.apply(move, event["seat"])


@dataclass
class GameRecord:
    """A record read and replayed: its header, rules, seats, hands and end; ``seat`` is
    the seat of a protocol transcript (None for a whole record), ``score`` the game's
    (None unless it was played out)."""

    header: dict
    rules: Rules
    seats: list[dict]
    hands: list[RecordedHand]
    end: dict | None
    seat: int | None = None
    score: GameScore | None = None

    @property
    def points(self) -> tuple[int, int]:
        """Each seat's hand points toward the target after the last finished hand."""
        done = [h for h in self.hands if h.result is not None]
        return done[-1].scores if done else (0, 0)


# --- writing ----------------------------------------------------------------------------
def header_line(rules: Rules, seed: int | None, game: int | None, seats: Sequence[dict]
                ) -> dict:
    """The record's first line: format and version, the rules (spec and every field),
    the seed and game number the deals come from, both seats' names and specs."""
    return {"type": "header", "format": RECORD_FORMAT, "version": RECORD_VERSION,
            "ginsim": __version__, "rules": rules.spec(), "rules_fields": rules.to_dict(),
            "seed": seed, "game": game, "seats": [dict(s) for s in seats]}


def deal_cards(table: Table) -> tuple[list[int], list[int], int | None, list[int]]:
    """The deal of ``table`` from its deck: each seat's dealt cards, the upcard (None
    with the eleven-card deal) and the stock, top first."""
    deck = [int(c) for c in table.hs[ST_DECK:ST_DECK + 52]]
    first = 11 if table.rules.deal == "eleven" else 10
    hands: list[list[int]] = [[], []]
    hands[1 - table.dealer] = deck[:first]
    hands[table.dealer] = deck[first:first + 10]
    upcard = None if table.rules.deal == "eleven" else deck[first + 10]
    start = first + 10 + (upcard is not None)
    return hands[0], hands[1], upcard, deck[start:]


def hand_lines(table: Table, before: Sequence[int] = (0, 0),
               after: Sequence[int] | None = None) -> list[dict]:
    """A hand's record lines: its ``deal`` (``before``: the game's hand points before
    it), an ``action`` per event, and once the hand is over its ``showdown`` (``after``:
    the points after it; the hand's own points added to ``before`` if not given)."""
    a, b, upcard, stock = deal_cards(table)
    h = table.hand
    lines = [{"type": "deal", "hand": h, "dealer": table.dealer,
              "hands": [_texts(sorted(a, key=sort_key)), _texts(sorted(b, key=sort_key))],
              "upcard": None if upcard is None else TEXT[upcard],
              "stock": _texts(stock), "knock_limit": table.knock_limit,
              "multiplier": int(table.hs[ST_MULTIPLIER]), "scores": list(before)}]
    lines += [{"type": "action", "hand": h, "seat": e["seat"], "action": e["action"],
               "card": e["card"]} for e in table.events]
    if table.phase == "over":
        result = table.result()
        if after is None:
            after = [before[0] + result["points"][0], before[1] + result["points"][1]]
        lines.append({"type": "showdown", "hand": h, **result, "scores": list(after)})
    return lines


def end_line(score: GameScore | None = None, *, forfeit: int | None = None,
             fault: str = "", stopped: str = "") -> dict:
    """The record's last line: the game's score when it was played out (``forfeit``: the
    seat whose fault ended it, ``fault`` its line), else ``over`` false and why it stopped."""
    if score is None:
        return {"type": "end", "over": False, "stopped": stopped or "the game was stopped"}
    out = {"type": "end", "over": True, "winner": score.winner, "scores": list(score.scores),
           "points": list(score.points), "boxes": list(score.boxes), "hands": score.hands,
           "shutout": score.shutout}
    if forfeit is not None:
        out.update(forfeit=forfeit, fault=fault)
    return out


def forfeit_score(points: Sequence[int], at_fault: int, hands: int, rules: Rules
                  ) -> GameScore:
    """The score of a game lost by ``at_fault``'s fault: the winner's total raised to the
    target, the loser's as it stood (``ginsim match``'s forfeit)."""
    winner = 1 - at_fault
    scores = [int(points[0]), int(points[1])]
    scores[winner] = max(scores[winner], rules.target)
    return GameScore(winner, (int(points[0]), int(points[1])), (0, 0),
                     (scores[0], scores[1]), hands, False)


def record_text(lines: Iterable[dict]) -> str:
    """The record's lines as JSON lines."""
    return "".join(encode(line) for line in lines)


def write_record(path: str | os.PathLike, lines: Iterable[dict]) -> Path:
    """Write a record to ``path`` whole or not at all (a temporary file, then renamed)."""
    return write_text_atomic(path, record_text(lines))


def _texts(cards: Iterable[int]) -> list[str]:
    return [TEXT[c] for c in cards]


def table_record(table: Table, seats: Sequence[dict] | None = None) -> list[dict]:
    """A record of the one hand at ``table`` (its deals are hand ``table.hand`` of
    ``table.seed``, no game around them): header, the hand so far, an end line."""
    seats = seats or [{"name": f"seat {s}", "spec": None} for s in (0, 1)]
    return [header_line(table.rules, table.seed, None, seats), *hand_lines(table),
            end_line(stopped="a single hand, not a game")]


def hand_result(hs: np.ndarray) -> HandResult:
    """A scored hand (its state's showdown fields) as the game's scoring takes it."""
    a, b = int(hs[RES_POINTS]), int(hs[RES_POINTS + 1])
    winner = 0 if a > 0 else 1 if b > 0 else -1
    return HandResult(winner, a + b, int(hs[RES_OUTCOME]), int(hs[ST_MULTIPLIER]))


# --- reading: what both readers (record_reader, record_transcript) check a line with --
def decode_line(n: int, text: str) -> dict[str, Any]:
    """Line ``n`` as a JSON object; a RecordError saying it is cut short or damaged."""
    try:
        return decode(text.strip())
    except ProtocolError as exc:
        raise RecordError(n, f"not a whole JSON object (a truncated or damaged line?): "
                             f"{exc}") from None


def field(n: int, message: dict, key: str, kind: type | tuple = object) -> Any:
    """``message[key]``, which must be there and of ``kind`` (int: a true int)."""
    what = message.get("type", "line")
    if key not in message:
        raise RecordError(n, f"the {what} line has no {key!r}")
    value = message[key]
    ok = is_int(value) if kind is int else isinstance(value, kind)
    if not ok:
        raise RecordError(n, f"the {what} line's {key!r} is {str(value)[:40]!r}, not "
                             f"{'a whole number' if kind is int else 'as a record has it'}")
    return value


def card(n: int, text: Any, what: str) -> int:
    """A card of line ``n`` (its text) as an int."""
    if not isinstance(text, str):
        raise RecordError(n, f"{what}: a card is text such as KD, got {str(text)[:20]!r}")
    try:
        return card_of(text)
    except ValueError as exc:
        raise RecordError(n, f"{what}: {exc}") from None
