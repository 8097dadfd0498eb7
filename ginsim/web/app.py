"""The ``ginsim serve`` web app: one page, its script and style (shipped in
``ginsim/web/static``), and a websocket that plays games (docs/serve.md).

Each websocket carries one session. A message is one JSON object with a ``type``;
every message the page cannot have meant (not JSON, an unknown type, an illegal move,
another session's game) is answered by one ``error`` message, the game left as it was.
Moves, the bot's turns, hints and reviews run in a thread pool, so a bot that compiles
(mc) or searches never holds up the other sessions; one game does one thing at a time.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..game.rules import Rules
from .game_view import BOT_CHOICES, RULES_CHOICES, knock_card_message
from .review_runner import review_message
from .sessions import LOG, MoveError, Session, SessionStore, WebGame

STATIC = Path(__file__).parent / "static"
#: Sessions idle this long are freed unless ``ginsim serve --idle-minutes`` says otherwise.
IDLE_SECONDS = 30 * 60
#: The most bytes one message may hold (a record uploaded for review is the largest).
MAX_MESSAGE_BYTES = 8 << 20
#: Seconds the server, stopping, waits for a game's move in progress before saving it.
SHUTDOWN_WAIT = 3.0
#: the names a loopback server answers to (a browser sends one of them as Host)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
TYPES = ("new_game", "move", "next_hand", "hint", "state", "review")


class Connection:
    """One websocket: its session, and a lock so that tasks' messages never interleave."""

    def __init__(self, socket: WebSocket, session: Session) -> None:
        self.socket = socket
        self.session = session
        self.sending = asyncio.Lock()
        self.tasks: set[asyncio.Task] = set()
        self.shown: dict[str, int] = {}  # game id -> the version of the last state sent

    async def send_state(self, game) -> None:
        """The game's state, noted as shown."""
        self.shown[game.id] = game.version
        await self.send(game.state())

    async def send(self, message: dict) -> None:
        async with self.sending:
            with suppress(RuntimeError, OSError, WebSocketDisconnect):  # the page left
                await self.socket.send_text(json.dumps(message))

    async def error(self, text: str, request: object = None, game: object = None) -> None:
        await self.send({"type": "error", "message": text,
                         "request": request if isinstance(request, str) else None,
                         "game": game if isinstance(game, str) else None})


class GinServer:
    """The sessions, the thread pool and the locks of one running app."""

    def __init__(self, records: Path, idle_seconds: float = IDLE_SECONDS,
                 workers: int = 4, review_rollouts: int | None = None) -> None:
        self.store = SessionStore(records, idle_seconds)
        self.review_rollouts = review_rollouts
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ginsim")
        self.locks: dict[str, asyncio.Lock] = {}  # game id -> one thing at a time
        self.sockets: dict[str, Connection] = {}  # session id -> its open websocket

    async def run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    def lock(self, game_id: str) -> asyncio.Lock:
        return self.locks.setdefault(game_id, asyncio.Lock())

    # --- the websocket -------------------------------------------------------------
    async def websocket(self, socket: WebSocket) -> None:
        origin = socket.headers.get("origin")
        if origin and urlsplit(origin).netloc != socket.headers.get("host"):
            await socket.close(code=1008)  # another site's page may not play here
            return
        await socket.accept()
        session = self.store.open(socket.query_params.get("session"))
        conn = Connection(socket, session)
        older = self.sockets.get(session.id)
        self.sockets[session.id] = conn
        if older is not None:  # one page a session: the newest tab plays, the older stops
            await older.error("this session was opened in another tab or window, which "
                              "plays it now; reload this page to play here again")
            with suppress(RuntimeError):
                await older.socket.close(code=1000)
        await conn.send({"type": "hello", "session": session.id, "bots": list(BOT_CHOICES),
                         "rules": list(RULES_CHOICES),
                         "games": list(session.games), "idle_seconds":
                         self.store.idle_seconds})
        try:
            while True:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                session.touch()
                session.busy += 1  # never idle while a message is being answered
                try:
                    await self.answer(conn, frame)
                finally:
                    session.busy -= 1
                    session.touch()
        except (WebSocketDisconnect, RuntimeError):  # the page left, or the server stops
            pass
        finally:
            if self.sockets.get(session.id) is conn:
                del self.sockets[session.id]
            for task in list(conn.tasks):
                task.cancel()

    async def answer(self, conn: Connection, frame: dict) -> None:
        """A frame's message answered; a failure of the server's own is said to the page
        in one line (and logged), and the session goes on."""
        text = frame.get("text")
        if text is None:
            try:
                text = (frame.get("bytes") or b"").decode("utf-8")
            except UnicodeDecodeError:
                return await conn.error("the message is not UTF-8 text: send JSON as text")
        try:
            await self.dispatch(conn, text)
        except Exception as err:  # a bug: said once, the game as the last state shows it
            LOG.exception("ginsim serve failed on a message")
            await conn.error(f"the server failed on this message ({type(err).__name__}: "
                             f"{' '.join(str(err).split())[:200]}); the game is as its "
                             "last state shows")

    async def dispatch(self, conn: Connection, text: str) -> None:
        """One message: answered by its state, hint or review, or by one error."""
        if len(text) > MAX_MESSAGE_BYTES:
            return await conn.error(f"the message has {len(text):,} characters, over the "
                                    f"{MAX_MESSAGE_BYTES:,} a message may hold")
        try:
            message = json.loads(text)
        except ValueError as err:
            return await conn.error(f"the message is not JSON ({err}): send one object "
                                    'such as {"type": "state", "game": "ID"}')
        if not isinstance(message, dict):
            return await conn.error("the message must be a JSON object with a \"type\"")
        kind, game_id = message.get("type"), message.get("game")
        if kind not in TYPES:
            return await conn.error(f"unknown message type {str(kind)[:30]!r}: the types "
                                    f"are {', '.join(TYPES)}", kind, game_id)
        try:
            if kind == "new_game":
                return await self.new_game(conn, message)
            if kind == "review" and "record" in message:
                return self.spawn(conn, self.review(conn, None, message["record"]))
            game = self.store.game_of(conn.session, game_id)
            if kind in ("hint", "review"):
                work = self.hint(conn, game) if kind == "hint" else self.review(conn, game)
                return self.spawn(conn, work)
            await self.play(conn, game, kind, message)
        except MoveError as err:
            await conn.error(str(err), kind, game_id)

    def spawn(self, conn: Connection, work) -> None:
        task = asyncio.create_task(self.answered(conn, work))
        conn.tasks.add(task)
        task.add_done_callback(conn.tasks.discard)

    async def answered(self, conn: Connection, work) -> None:
        """Run a hint's or review's ``work``; a failure it does not answer itself is
        logged and told to the page in one line, so the page never waits forever."""
        try:
            await work
        except Exception as err:  # noqa: BLE001 - the page must hear of every failure
            LOG.exception("ginsim serve: a hint or review failed")
            await conn.error(f"this request failed ({type(err).__name__}); the game is "
                             "as its last state shows")

    # --- what the messages do ------------------------------------------------------
    async def new_game(self, conn: Connection, message: dict) -> None:
        bot, rules = message.get("bot", "simple"), message.get("rules", "modern")
        target, seed = message.get("target"), message.get("seed")
        if not isinstance(bot, str) or not isinstance(rules, str):
            raise MoveError('new_game: "bot" and "rules" are texts, e.g. "simple", "modern"')
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)
                                   or not 1 <= target <= 10_000):
            raise MoveError('new_game: "target" is a whole number of points, 1 to 10000')
        try:
            Rules.coerce(rules)
            game = await self.run(WebGame, bot, rules, self.store.records, target, seed)
        except (ValueError, TypeError) as err:
            raise MoveError(f"new_game: {' '.join(str(err).split())[:300]}") from None
        self.store.add_game(conn.session, game)
        card = await self.run(knock_card_message, game.game.rules.spec())
        await conn.send({**card, "game": game.id})
        await conn.send_state(game)
        await self.bot_turns(conn, game)

    async def play(self, conn: Connection, game: WebGame, kind: str, message: dict) -> None:
        if kind == "state":  # a page (re)opened: the knock card too
            card = await self.run(knock_card_message, game.game.rules.spec())
            await conn.send({**card, "game": game.id})
        async with self.lock(game.id):
            if kind == "move":
                await self.run(game.move, message.get("move"))
            elif kind == "next_hand":
                await self.run(game.next_hand)
            await conn.send_state(game)
        await self.bot_turns(conn, game)

    async def bot_turns(self, conn: Connection, game: WebGame) -> None:
        """The bot's moves, if it is to move, then the state again; also where another
        socket's task moved the bot since this page's last state (a reload during the
        bot's turn), so no page is left waiting on a move already made."""
        async with self.lock(game.id):
            if game.bot_to_move:
                await self.run(game.bot_moves)
            if conn.shown.get(game.id) != game.version:
                await conn.send_state(game)

    async def hint(self, conn: Connection, game: WebGame) -> None:
        try:
            async with self.lock(game.id):
                await conn.send(await self.run(game.hint))
        except MoveError as err:
            await conn.error(str(err), "hint", game.id)

    async def review(self, conn: Connection, game: WebGame | None, text: object = None
                     ) -> None:
        """A game's review (this session's game, or an uploaded record's text); one at
        a time a session, so that one page cannot fill the workers every page shares."""
        if conn.session.reviewing:
            await conn.error("a review of this page's is already running: wait for it to "
                             "finish, then ask again", "review",
                             None if game is None else game.id)
            return
        conn.session.reviewing = True
        try:
            await self.reviewed(conn, game, text)
        finally:
            conn.session.reviewing = False

    async def reviewed(self, conn: Connection, game: WebGame | None, text: object) -> None:
        """The review run in a worker, with its progress and its one error line."""
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:
            asyncio.run_coroutine_threadsafe(conn.send(
                {"type": "progress", "what": "review", "done": done, "total": total}), loop)

        try:
            if game is None:
                lines = None
            else:
                async with self.lock(game.id):
                    lines = game.record_lines()
            out = await self.run(review_message, lines, text, progress,
                                 self.review_rollouts)
        except (MoveError, ValueError) as err:
            await conn.error(" ".join(str(err).split())[:400], "review",
                             None if game is None else game.id)
            return
        await conn.send({**out, "game": None if game is None else game.id})

    # --- idle sessions and the end --------------------------------------------------
    async def sweep(self, every: float) -> None:
        """Free sessions left idle, every ``every`` seconds, saying so to their page."""
        while True:
            await asyncio.sleep(every)
            for session in self.store.idle():
                try:
                    await self.close_session(session, "idle")
                except Exception:  # noqa: BLE001 - one session's failure stops no sweep
                    LOG.exception("ginsim serve could not free an idle session")

    async def close_session(self, session: Session, why: str) -> None:
        for game_id in session.games:
            async with self.lock(game_id):
                pass
            self.locks.pop(game_id, None)
        await self.run(self.store.free, session, why)
        conn = self.sockets.pop(session.id, None)
        if conn is not None:
            minutes = self.store.idle_seconds / 60
            await conn.error(f"this page sent nothing for {minutes:g} minutes, so its "
                             "session was closed and its games saved; reload the page to "
                             "play again")
            with suppress(RuntimeError):
                await conn.socket.close(code=1001)

    async def shutdown(self) -> None:
        """Every session freed, its unfinished games saved: each after its game's move
        in progress ends (a few seconds at most; then saved as it stands)."""
        for session in list(self.store.sessions.values()):
            for game_id in list(session.games):
                with suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.lock(game_id).acquire(), SHUTDOWN_WAIT)
            try:
                self.store.free(session, "server")
            except Exception as err:  # noqa: BLE001 - the other sessions' games still saved
                LOG.error("ginsim serve could not save a game: %s", err)
        self.pool.shutdown(wait=False, cancel_futures=True)


def create_app(records: str | Path = "ginsim-games", idle_seconds: float = IDLE_SECONDS,
               workers: int = 4, review_rollouts: int | None = None,
               hosts: Sequence[str] | None = LOOPBACK_HOSTS) -> Starlette:
    """The app: ``/`` the page, ``/static`` its script and style, ``/ws`` the games.
    Records go to ``records`` (made on the first save); sessions idle ``idle_seconds``
    are freed; a review weighs each decision with ``review_rollouts`` (None: the
    review's default). Requests naming another ``Host`` than ``hosts`` are refused (a
    page whose site name was pointed at this machine, DNS rebinding); None: any."""
    server = GinServer(Path(records), idle_seconds, workers, review_rollouts)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        sweeper = asyncio.create_task(server.sweep(min(60.0, max(idle_seconds / 4, 0.05))))
        try:
            yield
        finally:
            sweeper.cancel()
            await server.shutdown()

    async def page(request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app = Starlette(routes=[Route("/", page), WebSocketRoute("/ws", server.websocket),
                            Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    lifespan=lifespan,
                    middleware=[Middleware(TrustedHostMiddleware,
                                           allowed_hosts=list(hosts or ["*"]))])
    app.state.server = server
    return app
