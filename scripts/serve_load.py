"""``ginsim serve`` under load: N scripted websocket clients each play a whole game
against a bot at once on one real server (uvicorn on a free loopback port, in a thread
of this process), and the figures are printed: games finished, wall time, moves a
second, the server process's memory before and after (RSS), and checks that no game
saw another's messages and every game's record agrees with what its client saw.

    python scripts/serve_load.py --clients 50 --bot simple --target 100

tests/test_serve.py runs the same clients (fewer hands: a lower target).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
import websockets

from ginsim.table.records.record_reader import read_record
from ginsim.web.app import create_app


class ServerThread:
    """A real ``ginsim serve`` app on 127.0.0.1 and a free port, in a thread."""

    def __init__(self, records: Path, idle_seconds: float = 1800, **options) -> None:
        self.app = create_app(records, idle_seconds, **options)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


def choose(state: dict) -> dict | None:
    """A scripted player's next message for ``state``: next hand, gin, knock, pass the
    upcard, draw from the stock, discard the highest loose card; None when the bot is to
    move or the game is over."""
    game = state["game"]
    if state["hand_over"]:
        return None if state["game_over"] else {"type": "next_hand", "game": game}
    moves = state["moves"]
    if moves["gin"]:
        text = "gin"
    elif moves["knock"]:
        text = f"knock {moves['knock'][0]}"
    elif "pass" in moves["buttons"]:
        text = "pass"
    elif "stock" in moves["buttons"]:
        text = "stock"
    elif moves["discard"]:
        loose = [c for c in state["table"]["loose"] if c in moves["discard"]]
        text = f"discard {(loose or moves['discard'])[-1]}"
    else:
        return None
    return {"type": "move", "game": game, "move": text}


async def play_game(ws_url: str, bot: str = "simple", target: int | None = None,
                    seed: int | None = None, rules: str = "modern") -> dict:
    """One whole game by one client: its id, record file, final state, message count,
    and every game id it was sent (no cross-talk: only its own)."""
    seen_ids: set[str] = set()
    messages = 0
    async with websockets.connect(ws_url, max_size=None) as ws:
        hello = json.loads(await ws.recv())
        assert hello["type"] == "hello", hello
        new = {"type": "new_game", "bot": bot, "rules": rules}
        if target is not None:
            new["target"] = target
        if seed is not None:
            new["seed"] = seed
        await ws.send(json.dumps(new))
        while True:
            message = json.loads(await ws.recv())
            messages += 1
            if message.get("game"):
                seen_ids.add(message["game"])
            if message["type"] == "error":
                raise AssertionError(f"the server refused a scripted move: {message}")
            if message["type"] != "state":
                continue
            if message["game_over"]:
                return {"game": message["game"], "record": message["record"],
                        "state": message, "messages": messages, "ids": seen_ids}
            reply = choose(message)
            if reply is not None:
                await ws.send(json.dumps(reply))


def check_game(result: dict) -> None:
    """The client saw only its own game, and the game's record says what it saw."""
    assert result["ids"] == {result["game"]}, f"cross-talk: {result['ids']}"
    record = read_record(result["record"])
    state = result["state"]
    assert tuple(record.points) == (state["score"]["you"], state["score"]["bot"]), (
        record.points, state["score"])
    assert len(record.hands) == state["hand_number"]
    assert record.end.get("winner") is not None or record.end.get("scores") is not None


async def play_many(ws_url: str, clients: int, bot: str, target: int | None,
                    seed0: int = 1000) -> list[dict]:
    """``clients`` games at once, each its own connection and seed."""
    return list(await asyncio.gather(*(play_game(ws_url, bot, target, seed0 + k)
                                       for k in range(clients))))


def rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2 ** 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--bot", default="simple")
    parser.add_argument("--target", type=int, default=None,
                        help="points that win each game (default: the rules' 100)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ServerThread(Path(folder)) as server:
        asyncio.run(play_game(server.ws_url, args.bot, 10, 1))  # kernels loaded, warm
        before = rss_mb()
        t0 = time.perf_counter()
        results = asyncio.run(play_many(server.ws_url, args.clients, args.bot, args.target))
        wall = time.perf_counter() - t0
        after = rss_mb()
        for result in results:
            check_game(result)
        hands = sum(r["state"]["hand_number"] for r in results)
        messages = sum(r["messages"] for r in results)
        records = len(list(Path(folder).glob("*.jsonl")))
    print(f"clients: {args.clients} simultaneous games against {args.bot} "
          f"(target {args.target or 'the rules'})")
    print(f"games finished: {len(results)} of {args.clients}; hands: {hands}; "
          f"records written: {records - 1} (+1 warm-up)")
    print(f"wall time: {wall:.2f} s; {hands / wall:.1f} hands/s; "
          f"{messages / wall:.0f} server messages/s ({messages} messages)")
    print(f"memory (server process RSS): {before:.0f} MiB before, {after:.0f} MiB after "
          f"(+{after - before:.0f} MiB for {args.clients} sessions)")
    print("cross-talk: none (each client saw only its own game id); every record's "
          "score matches its client's last state")


if __name__ == "__main__":
    main()
