"""The games a ``ginsim serve`` holds: each page's session, its games, and what each
game does with a message (docs/serve.md).

A :class:`WebGame` is one :class:`~ginsim.table.game_table.TableGame` against a bot with
the words said so far this hand, saved as a game record (docs/records.md) at the end of
every hand and when it is left. Its methods are plain blocking calls (the bot's moves
and the advisor run numba kernels, mc's compile on first use); the app runs them in a
thread pool, one at a time per game. A :class:`SessionStore` knows every session and
which session owns which game, and frees sessions left idle.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..game.rng_nb import check_seed
from ..reports.hand_words import event_text, gin_discards, hint_advice
from ..strategies import parse_strategy
from ..strategies.charts.knock_charts import spec_chart_files
from ..table.actions import Action, IllegalAction
from ..table.game_table import TableGame
from .game_view import hint_message, state_message

#: Rollouts behind a hint (``ginsim play --hint`` uses as many).
LOG = logging.getLogger("ginsim.web")
HINT_ROLLOUTS = 400
#: The most games a session holds (each new game past it lets the oldest go).
GAMES_KEPT = 8
#: The record file of a game: the date and time it began and its id.
RECORD_NAME = "game-{:%Y%m%d-%H%M%S}-{}.jsonl"
#: Why a game left before its end stopped, in its record's end line.
STOPPED = {"idle": "the page was left idle and its session was closed",
           "left": "the page started other games and left this one",
           "server": "the server stopped before the game's end"}


class MoveError(ValueError):
    """A message the game cannot follow: one line saying why; the game is unchanged."""


def new_id() -> str:
    """A game's or session's id: short, unguessable."""
    return secrets.token_urlsafe(9)


class WebGame:
    """One game against a bot: your moves, the bot's, the words said this hand."""

    def __init__(self, bot: str, rules: str, records: Path, target: int | None = None,
                 seed: int | None = None) -> None:
        files = spec_chart_files(bot)
        if files:  # the server's files are not the page's to read
            raise MoveError(f"the page plays built-in and shipped knock charts only, not a "
                            f"chart file ({files[0][:60]}): ginsim play reads chart files")
        parse_strategy(bot)  # a bad spec refused in one line before anything is made
        seed = secrets.randbelow(2 ** 31) if seed is None else check_seed(seed)
        self.game = TableGame(bot, rules, seed, target=target)
        self.id = new_id()
        self.version = 0  # every change counts, so the page drops stale hints
        self.log: list[str] = []
        self.record = records / RECORD_NAME.format(datetime.now(), self.id)
        self.saved = False
        self.save_error = ""  # why the last save failed, shown with the state
        self._deal()

    # --- moves --------------------------------------------------------------------
    def _deal(self) -> None:
        table = self.game.deal()
        self.entered = False  # the hand's showdown not yet in the game's scoring
        dealer = "you" if table.dealer == 0 else "the bot"
        self.log = [f"Hand {self.game.hands_played + 1}: dealer {dealer}."]
        self.version += 1

    @property
    def bot_to_move(self) -> bool:
        return self.game.table.to_move == 1

    def bot_moves(self) -> None:
        """The bot's moves until it is yours or the hand is over (entered, saved)."""
        table = self.game.table
        while table.to_move == 1:
            for event in self.game.bot_move():
                self.log.append(event_text(event, "Bot", self._gin()) + ".")
        self.version += 1
        self._end_of_hand()

    def move(self, text: object) -> None:
        """Your move, e.g. ``stock``, ``discard 7H``, ``knock 7H``, ``gin``: applied, or
        :class:`MoveError` saying why not, the game unchanged."""
        if not isinstance(text, str) or not text.strip():
            raise MoveError('a move is a text such as "stock", "pile", "take", "pass", '
                            '"discard 7H", "knock 7H", "gin" or "big gin"')
        table = self.game.table
        if table.to_move is None:
            raise MoveError(f"{text.strip()[:40]}: the hand is over; send next_hand")
        try:
            action = self._gin_action(text) if text.split()[0].lower() == "gin" else (
                Action.parse(text))
            events = self.game.apply(action)
        except IllegalAction as err:
            raise MoveError(" ".join(str(err).split())[:300]) from None
        self.log += [event_text(e, "You", self._gin()) + "." for e in events]
        self.version += 1
        self._end_of_hand()

    def _gin_action(self, text: str) -> Action:
        """``gin`` or ``gin 7H``: the knock that leaves no deadwood."""
        words, gin = text.split()[1:], gin_discards(self.game.table)
        if not gin:
            raise IllegalAction("gin: no discard leaves you without deadwood now")
        card = words[0].upper().replace("10", "T") if words else gin[0]
        if len(words) > 1 or card not in gin:
            raise IllegalAction(f"{text.strip()[:40]}: gin discards one of {' '.join(gin)}")
        return Action.parse(f"knock {card}")

    def _gin(self) -> bool:
        table = self.game.table
        return table.phase == "over" and table.result()["outcome"] == "gin"

    def _end_of_hand(self) -> None:
        if self.game.table.to_move is None and not self.entered:
            self.game.finish_hand()
            self.entered = True
            self.save_or_say()

    def save_or_say(self) -> None:
        """Save the record after a hand; a failure (a full disk, a folder gone) is kept
        to be shown with the state, and the game goes on: the next hand saves again."""
        try:
            self.save()
        except OSError as err:
            self.save_error = (f"this game's record could not be saved to {self.record} "
                               f"({err.strerror or err}); the game goes on and is saved "
                               f"again after the next hand")
            LOG.warning("ginsim serve: %s", self.save_error)
        else:
            self.save_error = ""

    def next_hand(self) -> None:
        """Deal the next hand once this one is over (and the game is not)."""
        if self.game.table.to_move is not None:
            raise MoveError("next_hand: this hand is not over yet")
        if self.game.over:
            raise MoveError("next_hand: the game is over; start a new game")
        self._deal()

    # --- what the page sees ---------------------------------------------------------
    def state(self) -> dict:
        out = state_message(self.game, self.id, self.log, str(self.record), self.version)
        out["bot_to_move"] = self.bot_to_move
        out["record_error"] = self.save_error
        return out

    def hint(self, rollouts: int = HINT_ROLLOUTS) -> dict:
        """The advisor's table for your decision now (MoveError when there is none)."""
        if self.game.table.to_move != 0:
            raise MoveError("hint: it is not your move")
        table, rules, bot = self.game.table, self.game.rules, self.game.bot_spec
        try:
            try:  # the chance of winning the game from the score, by the rules' game table
                frame, model, note = hint_advice(table, rules, bot, rollouts,
                                                 score=tuple(self.game.points))
            except ValueError as err:
                frame, model, note = hint_advice(table, rules, bot, rollouts)
                note = " ".join(filter(None, [note, f"no chance of winning the game here: "
                                                    f"{err}"]))
        except ValueError as err:
            raise MoveError(f"no hint here: {err}") from None
        return hint_message(frame, model, note, self.id, self.version)

    def record_lines(self) -> list[dict]:
        return self.game.record()

    def save(self, stopped: str = "") -> Path:
        """Write the game's record as it stands (whole or not at all)."""
        self.record.parent.mkdir(parents=True, exist_ok=True)
        self.game.write_record(self.record, stopped)
        self.saved = True
        return self.record


@dataclass
class Session:
    """One page's session: its games, and when it last sent a message."""

    id: str
    games: dict[str, WebGame] = field(default_factory=dict)
    last_seen: float = field(default_factory=time.monotonic)
    busy: int = 0  # messages being answered now
    reviewing: bool = False  # a review of this session's is running (one at a time)

    def touch(self) -> None:
        self.last_seen = time.monotonic()


class SessionStore:
    """Every session of the server, which session owns which game, and the records'
    folder."""

    def __init__(self, records: Path, idle_seconds: float) -> None:
        self.records = Path(records)
        self.idle_seconds = float(idle_seconds)
        self.sessions: dict[str, Session] = {}
        self.owner: dict[str, str] = {}  # game id -> session id

    def open(self, wanted: str | None = None) -> Session:
        """The session ``wanted`` if it is still held (a page reloaded), else a new one."""
        if wanted and wanted in self.sessions:
            session = self.sessions[wanted]
        else:
            session = Session(new_id())
            self.sessions[session.id] = session
        session.touch()
        return session

    def add_game(self, session: Session, game: WebGame) -> None:
        """``game`` is ``session``'s; past :data:`GAMES_KEPT` the oldest is let go (its
        record saved; an unfinished one says it was left)."""
        session.games[game.id] = game
        self.owner[game.id] = session.id
        while len(session.games) > GAMES_KEPT:
            old = session.games.pop(next(iter(session.games)))
            self.owner.pop(old.id, None)
            if not old.game.over:
                old.save(STOPPED["left"])

    def game_of(self, session: Session, game_id: object) -> WebGame:
        """``session``'s game ``game_id``, or MoveError saying whose it is not."""
        if not isinstance(game_id, str) or not game_id:
            raise MoveError('this message needs "game": the id of one of your games '
                            "(new_game starts one)")
        game = session.games.get(game_id)
        if game is not None:
            return game
        if game_id in self.owner:
            raise MoveError(f"game {game_id[:20]} belongs to another session: a page "
                            "plays only its own games")
        raise MoveError(f"no game {game_id[:20]!r} here (one let go for newer games or "
                        "with an idle session, its record saved; or none such): start one "
                        "with new_game")

    def idle(self, now: float | None = None) -> list[Session]:
        """The sessions that sent nothing for ``idle_seconds`` (and are answering none)."""
        now = time.monotonic() if now is None else now
        return [s for s in self.sessions.values()
                if not s.busy and now - s.last_seen >= self.idle_seconds]

    def free(self, session: Session, why: str) -> None:
        """Forget ``session`` and its games, each unfinished one's record saved with
        ``why`` (a key of :data:`STOPPED`) as the reason it stopped."""
        self.sessions.pop(session.id, None)
        for game in list(session.games.values()):
            self.owner.pop(game.id, None)
            if not game.game.over:
                game.save(STOPPED[why])
        session.games.clear()
