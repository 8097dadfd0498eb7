"""``ginsim serve`` over its websocket, on a real server (uvicorn on a free loopback port):
50 games played at once by scripted clients with no cross-talk and nothing lost; each
bad message (not JSON, an illegal move, another session's game) answered by one error
with the game unchanged; idle sessions freed with their records saved; slow work off
the event loop; and the command itself: its first line, loopback only, Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from script_modules import load_script
from websockets.sync.client import connect

from ginsim.table.records.record_reader import read_record
from ginsim.web import sessions

ROOT = Path(__file__).resolve().parents[1]




LOAD = load_script("serve_load")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LOAD.ServerThread(tmp_path_factory.mktemp("records"), review_rollouts=100) as s:
        yield s


def receive_until_state(ws, *, until_mine: bool = True) -> tuple[list[dict], dict]:
    """The messages up to a state (one where it is your move when ``until_mine``), the
    knock card left out (it comes with a new game and a state asked for)."""
    before = []
    while True:
        message = json.loads(ws.recv(timeout=60))
        if message["type"] == "state" and not (until_mine and message["bot_to_move"]):
            return before, message
        if message["type"] != "knock_card":
            before.append(message)


def new_game(ws, **fields) -> dict:
    json.loads(ws.recv(timeout=30))  # hello
    ws.send(json.dumps({"type": "new_game", "bot": "simple", **fields}))
    return receive_until_state(ws)[1]


def ask_state(ws, game: str) -> tuple[list[dict], dict]:
    ws.send(json.dumps({"type": "state", "game": game}))
    return receive_until_state(ws, until_mine=False)


def same_game(a: dict, b: dict) -> bool:
    keys = ("version", "table", "moves", "log", "score", "hand_number")
    return all(a[k] == b[k] for k in keys)


def test_fifty_games_at_once_no_cross_talk_nothing_lost(server) -> None:
    results = asyncio.run(LOAD.play_many(server.ws_url, 50, "simple", 30, seed0=7))
    for result in results:
        LOAD.check_game(result)  # only its own id; its record says what it saw
    assert len({r["game"] for r in results}) == 50
    assert len({r["record"] for r in results}) == 50
    assert all(r["state"]["game_over"].startswith("Game over") for r in results)


@pytest.mark.parametrize("bad, says", [
    ("{not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "fly"}', "unknown message type"),
    ('{"type": "move", "game": "GAME", "move": "discard ZZ"}', "ZZ"),
    ('{"type": "move", "game": "GAME", "move": 7}', "a move is a text"),
    ('{"type": "move", "game": "GAME", "move": "knock"}', "knock"),
    ('{"type": "next_hand", "game": "GAME"}', "not over"),
    ('{"type": "move", "game": "nosuchgame", "move": "stock"}', "no game"),
    ('{"type": "move", "move": "stock"}', '"game"'),
    ('{"type": "new_game", "bot": "nosuchbot"}', "nosuchbot"),
    ('{"type": "new_game", "bot": "memory2:chart=/etc/passwd"}', "chart file"),
    ('{"type": "new_game", "bot": "mc:rollout=memory2;chart=x.csv"}', "chart file"),
    ('{"type": "new_game", "bot": "simple", "rules": "nosuchrules"}', "nosuchrules"),
    ('{"type": "new_game", "bot": "simple", "target": -3}', "target"),
])
def test_a_bad_message_gets_one_error_and_changes_nothing(server, bad, says) -> None:
    with connect(server.ws_url) as ws:
        state = new_game(ws)
        ws.send(bad.replace("GAME", state["game"]))
        errors, after = ask_state(ws, state["game"])
        assert [m["type"] for m in errors] == ["error"], errors
        assert says in errors[0]["message"], errors[0]
        assert len(errors[0]["message"]) < 400 and "\n" not in errors[0]["message"]
        assert same_game(state, after)


def test_an_illegal_move_is_refused_in_the_machines_words(server) -> None:
    with connect(server.ws_url) as ws:
        state = new_game(ws)
        held = [c for m in state["table"]["melds"] for c in m] + state["table"]["loose"]
        # at the upcard offer the stock is no move; at the draw a discard is none
        wrong = f"discard {held[0]}" if "stock" in state["moves"]["buttons"] else "stock"
        ws.send(json.dumps({"type": "move", "game": state["game"], "move": wrong}))
        errors, after = ask_state(ws, state["game"])
        assert [m["type"] for m in errors] == ["error"], errors
        assert errors[0]["request"] == "move" and errors[0]["game"] == state["game"]
        assert same_game(state, after)


def test_another_sessions_game_is_refused_and_left_alone(server) -> None:
    with connect(server.ws_url) as owner, connect(server.ws_url) as other:
        mine = new_game(owner)
        new_game(other)
        for kind in ("move", "next_hand", "hint", "state", "review"):
            other.send(json.dumps({"type": kind, "game": mine["game"], "move": "stock"}))
            message = json.loads(other.recv(timeout=30))
            assert message["type"] == "error" and "another session" in message["message"]
        assert same_game(mine, ask_state(owner, mine["game"])[1])


def test_idle_sessions_are_freed_and_their_games_saved(tmp_path) -> None:
    with LOAD.ServerThread(tmp_path, idle_seconds=0.4) as server, \
            connect(server.ws_url) as ws:
        state = new_game(ws)
        store = server.app.state.server.store
        assert store.sessions
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] == "error" and "session was closed" in message["message"]
        deadline = time.monotonic() + 5
        while store.sessions and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not store.sessions and not store.owner
    record = read_record(state["record"])
    assert record.end["stopped"] == sessions.STOPPED["idle"]


def test_slow_work_leaves_other_sessions_playing(server, monkeypatch) -> None:
    """A hint (the advisor, or a bot's search) runs in the thread pool: while one
    session's hint is held up, another session starts a game and moves; the hint is
    let go only after that, so a blocked event loop would fail this test."""
    release = threading.Event()

    def held_hint(self, rollouts=0):
        assert release.wait(60), "the hint was never let go"
        raise sessions.MoveError("held hint done")

    monkeypatch.setattr(sessions.WebGame, "hint", held_hint)
    with connect(server.ws_url) as slow, connect(server.ws_url) as quick:
        game = new_game(slow)
        slow.send(json.dumps({"type": "hint", "game": game["game"]}))
        state = new_game(quick)
        quick.send(json.dumps({"type": "move", "game": state["game"],
                               "move": LOAD.choose(state)["move"]}))
        receive_until_state(quick, until_mine=False)
        release.set()
        assert "held hint done" in json.loads(slow.recv(timeout=30))["message"]


def non_loopback_address() -> str | None:
    """An address of this machine that is not loopback (None without one)."""
    import psutil

    for addresses in psutil.net_if_addrs().values():
        for a in addresses:
            if a.family == socket.AF_INET and not a.address.startswith("127."):
                return a.address
    return None


def test_the_command_serves_on_loopback_and_stops_on_ctrl_c(tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "ginsim", "serve", "--port", "0",
                             "--records", str(tmp_path / "games")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        first = proc.stdout.readline().strip()
        assert first.startswith("serving at http://127.0.0.1:"), first
        port = int(first.rsplit(":", 1)[1])
        assert port > 0
        import httpx

        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=30)
        assert page.status_code == 200 and 'aria-live' in page.text
        script = httpx.get(f"http://127.0.0.1:{port}/static/app.js", timeout=30)
        assert script.status_code == 200
        address = non_loopback_address()
        if address is not None:
            with pytest.raises(OSError):
                socket.create_connection((address, port), timeout=2).close()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (0, 130), (proc.returncode, err)
    assert "Traceback" not in err, err
    assert len(out.strip().splitlines()) == 1 and "stopped" in out, out


def test_the_command_refuses_a_bad_port_in_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "ginsim", "serve", "--port", "70000"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "port" in proc.stderr


def test_an_uploaded_record_is_reviewed(server, tmp_path) -> None:
    result = asyncio.run(LOAD.play_game(server.ws_url, "simple", 10, 3))
    text = Path(result["record"]).read_text()
    with connect(server.ws_url) as ws:
        json.loads(ws.recv(timeout=30))
        ws.send(json.dumps({"type": "review", "record": "not a record"}))
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] == "error" and message["request"] == "review"
        ws.send(json.dumps({"type": "review", "record": text}))
        while (message := json.loads(ws.recv(timeout=300)))["type"] == "progress":
            assert 0 < message["done"] <= message["total"]
    assert message["type"] == "review", message
    assert message["decisions"] and message["summary"]["decisions"] == len(
        message["decisions"])


def test_a_page_runs_one_review_at_a_time(server) -> None:
    """A second review asked while the first runs gets one error line; the first
    finishes, and a review asked after it runs (one page cannot fill the workers)."""
    result = asyncio.run(LOAD.play_game(server.ws_url, "simple", 10, 4))
    text = Path(result["record"]).read_text()
    with connect(server.ws_url) as ws:
        json.loads(ws.recv(timeout=30))
        for _ in range(3):
            ws.send(json.dumps({"type": "review", "record": text}))
        got = []
        while len([m for m in got if m["type"] in ("review", "error")]) < 3:
            got.append(json.loads(ws.recv(timeout=300)))
        answers = [m["type"] for m in got if m["type"] in ("review", "error")]
        assert answers.count("review") == 1 and answers.count("error") == 2, answers
        assert all("already running" in m["message"] for m in got if m["type"] == "error")
        ws.send(json.dumps({"type": "review", "record": text}))
        while (message := json.loads(ws.recv(timeout=300)))["type"] == "progress":
            pass
        assert message["type"] == "review"


def test_a_reloaded_page_resumes_its_session(server) -> None:
    with connect(server.ws_url) as ws:
        hello = json.loads(ws.recv(timeout=30))
        ws.send(json.dumps({"type": "new_game", "bot": "simple"}))
        state = receive_until_state(ws)[1]
    with connect(f"{server.ws_url}?session={hello['session']}") as ws:
        again = json.loads(ws.recv(timeout=30))
        assert again["session"] == hello["session"] and again["games"] == [state["game"]]
        assert same_game(state, ask_state(ws, state["game"])[1])
    with connect(f"{server.ws_url}?session=forged") as ws:
        assert json.loads(ws.recv(timeout=30))["games"] == []


def test_a_second_tab_on_a_session_stops_the_first(server) -> None:
    """The session opened again (a second tab): the older socket is told why in one
    error and closed; the newer plays the session's games."""
    from websockets.exceptions import ConnectionClosed

    with connect(server.ws_url) as first:
        hello = json.loads(first.recv(timeout=30))
        first.send(json.dumps({"type": "new_game", "bot": "simple"}))
        state = receive_until_state(first)[1]
        with connect(f"{server.ws_url}?session={hello['session']}") as second:
            assert json.loads(second.recv(timeout=30))["games"] == [state["game"]]
            told = json.loads(first.recv(timeout=30))
            assert told["type"] == "error" and "another tab" in told["message"]
            with pytest.raises(ConnectionClosed):
                first.recv(timeout=30)
            assert same_game(state, ask_state(second, state["game"])[1])


def test_another_sites_page_may_not_connect(server) -> None:
    """A page from another origin (a site the player has open) is refused: the socket
    closes before any message, so no game starts."""
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus):
        with connect(server.ws_url, origin="http://elsewhere.example") as ws:
            ws.recv(timeout=10)
    with connect(server.ws_url, origin=server.url) as ws:
        assert json.loads(ws.recv(timeout=30))["type"] == "hello"


@pytest.mark.parametrize("rules", ["classic", "oklahoma", "big_gin", "eleven", "last_discard",
                                   "tedesco", "palace"])
def test_each_rules_preset_plays_to_its_end(server, rules) -> None:
    """The page's moves cover every preset's phases (Oklahoma's knock limit, big gin, the
    eleven-card deal's first discard, the final discard's knock or pass)."""
    result = asyncio.run(LOAD.play_game(server.ws_url, "simple", 25, 11, rules=rules))
    LOAD.check_game(result)
    assert result["state"]["rules"].startswith(rules)


def valid_meld(cards: list[str]) -> bool:
    """Three or more cards of one rank, or a run in one suit (ace low, no wrap)."""
    ranks = ["A23456789TJQK".index(c[0]) for c in cards]
    suits = [c[1] for c in cards]
    if len(cards) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(set(suits)) == len(cards)
    return len(set(suits)) == 1 and sorted(ranks) == list(range(min(ranks),
                                                               min(ranks) + len(cards)))


def test_the_hand_is_shown_with_its_best_melds_grouped(tmp_path) -> None:
    """Every state of a game: the melds shown are melds, melds and the rest are exactly
    the hand held, the rest's card values add up to the hand's least deadwood (so the
    grouping is a best one), the rest is in suit order; the stock and the bot's pile
    cards are the table's."""
    from ginsim.game.cards import card_from_text, card_text, sort_key
    from ginsim.game.melds import deadwood

    game = sessions.WebGame("simple", "modern", tmp_path, target=60, seed=21)
    states = 0
    while not game.game.over:
        if game.bot_to_move:
            game.bot_moves()
            continue
        state, table = game.state(), game.game.table
        shown = state["table"]
        held = [card_text(c) for c in table.hand_of(0)]
        assert all(valid_meld(m) for m in shown["melds"]), shown["melds"]
        assert sorted(sum(shown["melds"], []) + shown["loose"]) == sorted(held)
        values = sum(min(10, "A23456789TJQK".index(c[0]) + 1) for c in shown["loose"])
        assert values == shown["deadwood"] == deadwood(held, "modern")
        assert shown["loose"] == sorted(shown["loose"], key=lambda c: sort_key(
            card_from_text(c)))
        assert shown["stock_left"] == table.stock_left
        bot_hand = {card_text(c) for c in table.hand_of(1)}
        assert set(shown["opponent_took"]) <= bot_hand
        states += 1
        move = LOAD.choose(state)
        game.next_hand() if move["type"] == "next_hand" else game.move(move["move"])
    assert states > 10


def test_a_record_that_cannot_be_saved_is_said_and_the_game_goes_on(tmp_path) -> None:
    """A hand's end whose record save fails (here its folder cannot be made: a file is
    in the way) is not a failure of the move: the state after it is sent with the
    reason, the game plays on, and once the folder can be made the next hand's save
    writes the whole record and the reason goes."""
    blocker = tmp_path / "records"
    blocker.write_text("a file where the records folder should be")
    game = sessions.WebGame("simple", "modern", blocker, target=300, seed=8)
    while game.game.table.to_move is not None:
        if game.bot_to_move:
            game.bot_moves()
        else:
            game.move(LOAD.choose(game.state())["move"])
    state = game.state()
    assert state["hand_over"] and "could not be saved" in state["record_error"]
    assert str(game.record) in state["record_error"] and not game.saved
    blocker.unlink()
    game.next_hand()
    while game.game.table.to_move is not None:
        if game.bot_to_move:
            game.bot_moves()
        else:
            game.move(LOAD.choose(game.state())["move"])
    assert game.state()["record_error"] == "" and game.saved
    assert len(read_record(game.record).hands) == 2


def test_a_page_shown_the_bots_turn_hears_its_end_whoever_moved_it(tmp_path) -> None:
    """A reload during the bot's turn: the new page was shown the state with the bot
    to move, and the old page's task made the bot's moves. When the new page's own
    bot turn finds nothing left to move, it still sends the state (no page waits on
    "the bot is thinking" for a move already made); a page that saw it gets nothing."""
    from ginsim.web.app import Connection, GinServer

    class Page:
        def __init__(self) -> None:
            self.sent: list[dict] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(json.loads(text))

    async def race() -> tuple[list[dict], list[dict]]:
        server = GinServer(tmp_path, workers=1)
        session = server.store.open()
        game = sessions.WebGame("simple", "modern", tmp_path, seed=3)
        server.store.add_game(session, game)
        while not game.bot_to_move:  # play until the bot is to move
            game.move(LOAD.choose(game.state())["move"])
        old, new = Connection(Page(), session), Connection(Page(), session)
        await new.send_state(game)  # the reloaded page: the bot to move
        assert new.socket.sent[-1]["bot_to_move"]
        await server.bot_turns(old, game)  # the old page's task moves the bot
        await server.bot_turns(new, game)  # the new page's turn: nothing left to move
        await server.bot_turns(old, game)
        server.pool.shutdown()
        return old.socket.sent, new.socket.sent

    old, new = asyncio.run(race())
    assert len(old) == 1 and not old[0]["bot_to_move"]
    assert len(new) == 2 and not new[-1]["bot_to_move"] and new[-1] == old[0]


def test_a_binary_frame_and_a_failure_of_the_server_are_one_error_each(server, monkeypatch
                                                                        ) -> None:
    def broken(self, text):
        raise KeyError("a bug")

    with connect(server.ws_url) as ws:
        state = new_game(ws)
        ws.send(b"\xff\xfe")
        errors, after = ask_state(ws, state["game"])
        assert [m["type"] for m in errors] == ["error"] and "UTF-8" in errors[0]["message"]
        monkeypatch.setattr(sessions.WebGame, "move", broken)
        ws.send(json.dumps({"type": "move", "game": state["game"], "move": "stock"}))
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] == "error" and "server failed" in message["message"]
        monkeypatch.undo()
        assert same_game(state, ask_state(ws, state["game"])[1])  # the session goes on


def test_a_session_keeps_its_latest_games_and_saves_the_rest(server) -> None:
    with connect(server.ws_url) as ws:
        json.loads(ws.recv(timeout=30))
        states = []
        for _ in range(sessions.GAMES_KEPT + 2):
            ws.send(json.dumps({"type": "new_game", "bot": "simple"}))
            states.append(receive_until_state(ws)[1])
        first = states[0]["game"]
        ws.send(json.dumps({"type": "state", "game": first}))
        assert "no game" in json.loads(ws.recv(timeout=30))["message"]
        assert same_game(states[-1], ask_state(ws, states[-1]["game"])[1])
    assert read_record(states[0]["record"]).end["stopped"] == sessions.STOPPED["left"]


def test_a_page_naming_another_host_is_refused(server) -> None:
    """A page whose site name was pointed at this machine (DNS rebinding) sends its own
    name as Host, with a matching Origin: the loopback server refuses it, page and socket."""
    import http.client

    from websockets.exceptions import InvalidStatus

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/", headers={"Host": f"rebind.example:{server.port}"})
    assert conn.getresponse().status == 400
    conn.close()
    with pytest.raises(InvalidStatus):
        with connect(server.ws_url, origin=f"http://rebind.example:{server.port}",
                     additional_headers={"Host": f"rebind.example:{server.port}"}) as ws:
            ws.recv(timeout=10)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/", headers={"Host": f"localhost:{server.port}"})
    assert conn.getresponse().status == 200
    conn.close()


def test_an_uploaded_record_playing_a_chart_file_is_refused(server, tmp_path) -> None:
    """An uploaded record whose bot plays a chart file is refused in one line: the review
    would read that file on the server's disk."""
    result = asyncio.run(LOAD.play_game(server.ws_url, "simple", 10, 5))
    lines = Path(result["record"]).read_text().splitlines()
    header = json.loads(lines[0])
    for seat in header["seats"]:
        if seat.get("spec"):
            seat["spec"] = "simple:chart=/etc/hostname"
    text = "\n".join([json.dumps(header), *lines[1:]]) + "\n"
    with connect(server.ws_url) as ws:
        json.loads(ws.recv(timeout=30))
        ws.send(json.dumps({"type": "review", "record": text}))
        message = json.loads(ws.recv(timeout=60))
    assert message["type"] == "error" and "chart file" in message["message"], message
