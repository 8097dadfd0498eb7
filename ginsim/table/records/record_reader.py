"""Reading a game record back: :func:`read_record` (docs/records.md).

A record (or a one-seat protocol transcript) is read and replayed. Every hand of a
record is dealt at a :class:`~ginsim.table.table.Table` from the record's own deal and
its actions are applied there one by one, so each is checked by the machine that
played it (an illegal one is refused with the Table's reason); the showdown and the
running scores must be the Table's result and the game's scoring
(:class:`~ginsim.game.scoring.game_scoring.GameTally`). A protocol transcript of one seat
is replayed through that seat's checked view (:class:`~ginsim.table.seat_view.SeatView`,
:mod:`ginsim.table.record_transcript`). Nothing here knows a rule of its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ...game.inputs.checks import is_int
from ...game.inputs.files import FileDataError, read_bounded
from ...game.rng_nb import check_seed
from ...game.rules import NEXT_DEALER_MODES, Rules
from ...game.scoring.game_scoring import GameTally
from ...simulator.limits import MAX_GAME_HANDS
from ...simulator.play.games_nb import first_dealer_nb, game_key_nb, next_dealer_nb
from ..actions import KINDS, TEXT, Action, IllegalAction
from ..table import Table
from .game_record import (
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    RECORD_VERSION,
    GameRecord,
    RecordedHand,
    RecordError,
    card,
    deal_cards,
    decode_line,
    field,
    forfeit_score,
    hand_result,
)
from .record_transcript import replay_transcript

Message = tuple[int, dict[str, Any]]
#: The end line's fields compared with the game's score.
SCORE_FIELDS = ("winner", "scores", "points", "boxes", "hands", "shutout")


def read_record(source: str | os.PathLike | Iterable[str]) -> GameRecord:
    """Read a game record or a one-seat protocol transcript (a path, or its lines) and
    replay it through the hand machine; :class:`RecordError` (one line: the line number
    and the reason) when it is damaged or impossible."""
    if isinstance(source, (str, os.PathLike)):
        try:
            data = read_bounded(source, MAX_RECORD_BYTES, "record")
        except FileDataError as exc:
            raise RecordError(0, str(exc)) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(data.count(b"\n", 0, exc.start) + 1,
                              "not UTF-8 text") from None
        lines = text.split("\n")
    else:
        lines = list(source)
    return replay_lines([(n, line) for n, line in enumerate(lines, 1) if line.strip()])


def replay_lines(lines: list[tuple[int, str]]) -> GameRecord:
    """A record or a transcript (numbered non-blank lines) read and replayed."""
    if not lines:
        raise RecordError(0, "the record is empty: a record starts with its header line")
    n, first = lines[0]
    if first.lstrip().startswith(("->", "<-")):
        return replay_transcript(lines)
    messages = _decoded(lines)
    n, header = next(messages)
    if header.get("type") == "start":
        return replay_transcript(lines)
    return _GameReplay(n, header).run(messages)


def _decoded(lines: list[tuple[int, str]]) -> Iterator[Message]:
    for n, text in lines:
        yield n, decode_line(n, text)



class _GameReplay:
    """One record replayed line by line."""

    def __init__(self, n: int, header: dict) -> None:
        self.rules, self.seed, self.game = _check_header(n, header)
        self.header = header
        self.tally = GameTally(self.rules)
        self.hands: list[RecordedHand] = []
        self.mode = NEXT_DEALER_MODES.index(self.rules.next_dealer)
        self.dealer: int | None = None  # the dealer the rules give the next hand
        if self.seed is not None and self.game is not None:
            self.dealer = int(first_dealer_nb(np.uint64(self.seed), self.game))
        self.last = n
        self.first = 0  # the first hand's number (a lone Table's hand may be any)

    def run(self, messages: Iterator[Message]) -> GameRecord:
        end = None
        pending: Message | None = None
        while True:
            n, message = pending or next(messages, (None, None))
            pending = None
            if n is None:
                raise RecordError(self.last + 1, "the record ends without its end line "
                                                 "(the file is cut short)")
            self.last = n
            kind = message.get("type")
            if kind == "end":
                end = self._end(n, message)
                break
            if kind != "deal":
                raise RecordError(n, f"a {str(kind)[:20]!r} line where hand "
                                     f"{len(self.hands)} should be dealt (or the end line)")
            pending = self._hand(n, message, messages)
        extra = next(messages, None)
        if extra is not None:
            raise RecordError(extra[0], "a line after the end line")
        return GameRecord(self.header, self.rules, self.header["seats"], self.hands, end,
                          None, self.tally.score() if self.tally.over else None)

    # --- one hand -------------------------------------------------------------------
    def _hand(self, n: int, message: dict, messages: Iterator[Message]) -> Message | None:
        """Deal, actions and showdown of one hand; the line after them."""
        h = len(self.hands) + self.first
        if self.hands and self.hands[-1].result is None:
            raise RecordError(n, f"hand {h} is dealt, but hand {h - 1} has no showdown")
        if self.tally.over:
            raise RecordError(n, f"hand {h} is dealt after the game was over "
                                 f"({self.tally.points[0]} to {self.tally.points[1]})")
        if len(self.hands) >= MAX_GAME_HANDS:
            raise RecordError(n, f"more than {MAX_GAME_HANDS} hands: no game is that long")
        table, hand = self._deal(n, message, h)
        self.hands.append(hand)
        nxt = next(messages, (None, None))
        while nxt[0] is not None and nxt[1].get("type") == "action":
            nxt = self._action(nxt, messages, table, hand)
        if table.phase == "over":
            if nxt[1] is None or nxt[1].get("type") != "showdown":
                raise RecordError(nxt[0] or self.last + 1,
                                  f"hand {h} is over here: its showdown line should follow")
            self._showdown(*nxt, table, hand)
            return None
        if nxt[1] is not None and nxt[1].get("type") == "showdown":
            phase = table.phase.replace("_", " ")
            raise RecordError(nxt[0], f"a showdown while hand {h} is not over "
                                      f"(seat {table.to_move} is to {phase})")
        return nxt if nxt[0] is not None else None

    def _deal(self, n: int, message: dict, h: int) -> tuple[Table, RecordedHand]:
        number = field(n, message, "hand", int)
        if self.game is None and not self.hands and number >= 0:  # a lone Table's hand
            self.first = h = number
        if number != h:
            raise RecordError(n, f"the deal of hand {message['hand']} where hand {h} comes")
        dealer = field(n, message, "dealer", int)
        if dealer not in (0, 1):
            raise RecordError(n, f"the dealer is seat 0 or 1, got {dealer}")
        if self.dealer is not None and dealer != self.dealer:
            raise RecordError(n, f"seat {dealer} deals hand {h}, but the rules "
                                 f"(next_dealer {self.rules.next_dealer}) give it to seat "
                                 f"{self.dealer}")
        _check_scores(n, message, self.tally.points, f"before hand {h}")
        hands, upcard, stock = _deal_cards(n, message)
        try:
            table = Table.from_deal(self.rules, hands, upcard, stock, dealer, hand=h)
        except ValueError as exc:
            raise RecordError(n, str(exc)) from None
        if self.seed is not None:
            self._check_seeded(n, table, h, dealer, len(message["stock"]))
        for key, value in (("knock_limit", table.knock_limit),
                           ("multiplier", table.observation(0)["multiplier"])):
            if key in message and message[key] != value:
                raise RecordError(n, f"the deal's {key} is {message[key]!r}, but the rules "
                                     f"make it {value} for this deal")
        self.dealer = dealer
        return table, RecordedHand(h, dealer, hands, upcard, stock)

    def _check_seeded(self, n: int, table: Table, h: int, dealer: int, given: int) -> None:
        """With a seed in the header, the deal must be the one the seed deals."""
        key = self.seed if self.game is None else int(game_key_nb(np.uint64(self.seed),
                                                                  self.game))
        mine, seeded = deal_cards(table), deal_cards(Table(self.rules, key, h, dealer))
        if ([sorted(m) for m in mine[:2]], mine[2], mine[3][:given]) != (
                [sorted(m) for m in seeded[:2]], seeded[2], seeded[3][:given]):
            where = "" if self.game is None else f" of game {self.game}"
            raise RecordError(n, f"the deal is not the one seed {self.seed} deals for hand "
                                 f"{h}{where} (the record was changed)")

    def _action(self, current: Message, messages: Iterator[Message], table: Table,
                hand: RecordedHand) -> Message:
        """Apply one recorded move (two lines for the final discard taken to knock);
        returns the line after it."""
        n, message = current
        recorded = [message]
        seat, kind, number = _action_fields(n, message, hand.number)
        if table.phase == "last_discard" and kind == "pile":
            n, message = next(messages, (None, None))
            if message is None or message.get("type") != "action":
                raise RecordError(n or self.last + 1, "the final discard is taken only to "
                                                      "knock: a knock line should follow")
            recorded.append(message)
            seat, kind, number = _action_fields(n, message, hand.number)
        move = Action(kind, number if kind in ("discard", "knock") else -1)
        try:
            events = table.apply(move, seat)
        except IllegalAction as exc:
            raise RecordError(n, f"seat {seat}'s {exc} (an illegal move here)") from None
        for line, event in zip(recorded, events, strict=False):
            if line.get("action") != event["action"] or line.get("card") != event["card"]:
                raise RecordError(n, f"seat {seat} {event['action']} here moves "
                                     f"{event['card']}, but the record says "
                                     f"{line.get('action')} {line.get('card')}")
        hand.actions += [dict(e) for e in events]
        self.last = n
        return next(messages, (None, None))

    def _showdown(self, n: int, message: dict, table: Table, hand: RecordedHand) -> None:
        self.last = n
        result = table.result()
        for key, value in result.items():
            if message.get(key) != value:
                raise RecordError(n, f"the showdown's {key} is {str(message.get(key))[:60]}, "
                                     f"but hand {hand.number} replays to {value}")
        scored = hand_result(table.hs)
        self.tally.enter(scored)
        _check_scores(n, message, self.tally.points, f"after hand {hand.number}")
        hand.result, hand.scores = result, self.tally.points
        self.dealer = int(next_dealer_nb(hand.dealer, scored.winner, self.mode))

    def _end(self, n: int, message: dict) -> dict:
        """Check the end line against the game as replayed."""
        over = field(n, message, "over", bool)
        points = self.tally.points
        if not over:
            if self.tally.over and self.game is not None:  # (a lone hand is no game)
                raise RecordError(n, f"the end line says the game is not over, but it ended "
                                     f"{points[0]} to {points[1]}")
            return message
        forfeit = message.get("forfeit")
        if forfeit is not None:
            if forfeit not in (0, 1):
                raise RecordError(n, f"a forfeit is by seat 0 or 1, got {str(forfeit)[:10]}")
            score = forfeit_score(points, forfeit, self.tally.hands, self.rules)
            fields = ("winner", "scores")
        elif not self.tally.over:
            raise RecordError(n, f"the end line says the game is over, but the scores are "
                                 f"{points[0]} to {points[1]}, short of the target "
                                 f"{self.rules.target}")
        else:
            score, fields = self.tally.score(), SCORE_FIELDS
        for key in fields:
            value = getattr(score, key)
            value = list(value) if isinstance(value, tuple) else value
            if message.get(key) != value:
                raise RecordError(n, f"the end line's {key} is {str(message.get(key))[:40]}, "
                                     f"but the game replays to {value}")
        return message


def _check_header(n: int, header: dict) -> tuple[Rules, int | None, int | None]:
    """The header's rules, seed and game number, each checked."""
    if header.get("type") != "header" or header.get("format") != RECORD_FORMAT:
        raise RecordError(n, f"not a ginsim game record: the first line is a record header "
                             f"(format {RECORD_FORMAT!r}) or a protocol transcript's start")
    version = header.get("version")
    if version != RECORD_VERSION:
        raise RecordError(n, f"a record of format version {str(version)[:20]}; this ginsim "
                             f"reads version {RECORD_VERSION}")
    rules = _header_rules(n, header)
    seed, game = header.get("seed"), header.get("game")
    try:
        seed = None if seed is None else check_seed(seed)
    except ValueError as exc:
        raise RecordError(n, str(exc)) from None
    if game is not None and (not is_int(game) or game < 0):
        raise RecordError(n, f"the game number is a whole number from 0, got {str(game)[:20]}")
    seats = header.get("seats")
    if not isinstance(seats, list) or len(seats) != 2 or not all(
            isinstance(s, dict) for s in seats):
        raise RecordError(n, "seats: a list of two seats, each {\"name\": ..., \"spec\": ...}")
    return rules, seed, game


def _header_rules(n: int, header: dict) -> Rules:
    """The header's rules: a spec, its fields (if given) agreeing, knocking gin."""
    try:
        rules = Rules.coerce(field(n, header, "rules", str))
    except ValueError as exc:
        raise RecordError(n, f"rules: {exc}") from None
    fields = header.get("rules_fields")
    if fields is not None and fields != rules.to_dict():
        wrong = next((k for k, v in rules.to_dict().items()
                      if not isinstance(fields, dict) or fields.get(k) != v), "?")
        raise RecordError(n, f"the rules' fields disagree with the spec {rules.spec()!r} "
                             f"({wrong})")
    if rules.mahjong:
        raise RecordError(n, "Mahjong gin is not recorded: the Table plays knocking gin")
    return rules


def _check_scores(n: int, message: dict, points: tuple[int, int], when: str) -> None:
    scores = field(n, message, "scores", list)
    if scores != list(points):
        raise RecordError(n, f"the scores {when} are {str(scores)[:40]}, but the hands "
                             f"replay to {list(points)} (scores that do not follow)")


def _deal_cards(n: int, message: dict) -> tuple[tuple[list[int], list[int]], int | None,
                                                  list[int]]:
    """The deal's cards, each once (the stock completed with the cards it leaves out)."""
    hands = field(n, message, "hands", list)
    if len(hands) != 2 or not all(isinstance(h, list) for h in hands):
        raise RecordError(n, "hands: a list of two lists of cards, seat 0's then seat 1's")
    places = [(f"seat {s}'s hand", [card(n, c, "hands") for c in hands[s]]) for s in (0, 1)]
    up = message.get("upcard")
    upcard = None if up is None else card(n, up, "upcard")
    places.append(("the upcard", [] if upcard is None else [upcard]))
    places.append(("the stock", [card(n, c, "stock") for c in field(n, message, "stock",
                                                                      list)]))
    seen: dict[int, str] = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                also = "" if seen[c] == where else f" and {where}"
                raise RecordError(n, f"{TEXT[c]} is dealt twice ({seen[c]}{also}): a deck "
                                     f"holds each card once")
            seen[c] = where
    stock = places[3][1] + [c for c in range(52) if c not in seen]
    return (places[0][1], places[1][1]), upcard, stock


def _action_fields(n: int, message: dict, h: int) -> tuple[int, str, int]:
    """An action line's seat, action and card (-1: none)."""
    if field(n, message, "hand", int) != h:
        raise RecordError(n, f"an action of hand {message['hand']} in hand {h}")
    seat = field(n, message, "seat", int)
    kind = message.get("action")
    if seat not in (0, 1) or kind not in KINDS:
        raise RecordError(n, f"an action is a seat (0 or 1) and one of {', '.join(KINDS)}, "
                             f"got seat {str(seat)[:10]} {str(kind)[:20]!r}")
    text = message.get("card")
    return seat, kind, -1 if text is None else card(n, text, f"seat {seat} {kind}")
