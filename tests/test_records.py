"""Game records (docs/records.md): written by the Table API, ``ginsim play`` and
``ginsim match --record``, read back and replayed through the hand machine; a record
spoiled in one line is refused in one line naming it."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from transcripts import log_seat_b

from ginsim.cli import main
from ginsim.game.cards import card_text
from ginsim.table.actions import KINDS, Action
from ginsim.table.agents import Agent, decide_message, hand_message
from ginsim.table.game_table import TableGame
from ginsim.table.records.game_record import (
    RECORD_VERSION,
    RecordError,
    record_text,
    table_record,
    write_record,
)
from ginsim.table.records.record_reader import read_record
from ginsim.table.referee import play_match
from ginsim.table.table import Table, view_event


def _played(bot: str = "simple", seed: int = 11, target: int = 100,
            rules: str = "modern") -> TableGame:
    """A game of ``memory2`` (seat 0, through TableGame.apply) against ``bot``."""
    game = TableGame(bot, rules, seed, target=target)
    me = Agent.from_spec("memory2", game.rules)
    while not game.over:
        table = game.deal()
        me.handle(hand_message(table, 0))
        while table.to_move is not None:
            if table.to_move == 1:
                events = game.bot_move()
            else:
                events = game.apply(Action.from_message(me.handle(decide_message(table))))
            for event in events:
                me.handle(view_event(event, 0))
        game.finish_hand()
    return game


@lru_cache(maxsize=1)
def _record_lines() -> tuple[str, ...]:
    return tuple(record_text(_played().record()).splitlines())


def _refused(lines, line: int) -> str:
    with pytest.raises(RecordError) as caught:
        read_record(list(lines))
    message = str(caught.value)
    assert caught.value.line == line and message.startswith(f"line {line}: "), message
    assert "\n" not in message
    return message


@pytest.mark.parametrize("rules,bot", [("modern", "simple"), ("oklahoma", "memory2"),
                                       ("eaai", "expert")])
def test_a_played_game_round_trips(rules: str, bot: str, tmp_path: Path) -> None:
    """Written, read, replayed: the same hands, showdowns and final score."""
    game = _played(bot, 7, rules=rules)
    path = game.write_record(tmp_path / "game.jsonl")
    record = read_record(path)
    assert record.score == game.score() and len(record.hands) == game.hands_played
    assert record.seats[1]["spec"] == bot and record.seat is None
    assert record.rules == game.rules
    # every hand is dealt as game 0 of the seed deals it, and walks again to its result
    for hand in record.hands:
        table = Table(game.rules, game.game_key, hand.number, hand.dealer)
        assert sorted(table.hand_of(0)) == sorted(hand.hands[0])
        seats = []
        for again, seat, move in hand.walk(record.rules):
            assert again.to_move == seat and move in again.legal_actions()
            seats.append(seat)
        assert again.phase == "over" and again.result() == hand.result
        assert len(seats) == len(hand.actions)  # no final discard taken to knock here
    totals = [sum(h.result["points"][s] for h in record.hands) for s in (0, 1)]
    assert tuple(totals) == game.score().points == record.points


@pytest.mark.parametrize("rules,seed,hand,outcome", [
    ("classic", 5, 3, None), ("big_gin", 1, 1192, "big_gin"), ("last_discard", 1, 54, "dead")])
def test_a_lone_table_hand_round_trips(rules: str, seed: int, hand: int, outcome) -> None:
    """One Table's hand as a record (table_record): big gin and a dead hand included."""
    from ginsim.table.agents import play_hand

    table = Table(rules, seed, hand, hand % 2)
    bots = [Agent.from_spec("simple", rules, seed), Agent.from_spec("simple", rules, seed)]
    result = play_hand(table, bots)
    assert outcome is None or result["outcome"] == outcome  # the hand these were found for
    record = read_record(record_text(table_record(table)).splitlines())
    assert record.hands[0].result == result and record.points == tuple(result["points"])
    assert record.hands[0].actions == table.events


def test_the_final_discard_taken_to_knock_is_two_lines_replayed_as_one_move() -> None:
    """Under the 50th-card rule a knock with the final discard is recorded as the
    protocol's events, pile then knock, and replayed as the one move it was."""
    table = Table("last_discard", 1, 138, 0)  # a deal where the scripted play below
    while table.phase not in ("last_discard", "over"):  # ends with that knock open
        if table.phase in ("offer", "draw"):
            table.apply("pass" if table.phase == "offer" else "stock")
        else:  # discard the card just drawn
            table.apply(Action.parse(table.events[-1]["card"]))
    knock = next(a for a in table.legal_actions() if a.kind == "knock")
    table.apply(knock)
    lines = record_text(table_record(table)).splitlines()
    assert [json.loads(x)["action"] for x in lines[-4:-2]] == ["pile", "knock"]
    record = read_record(lines)
    assert record.hands[0].result == table.result()
    moves = [move for _, _, move in record.hands[0].walk(record.rules)]
    assert moves[-1] == knock and len(moves) == len(record.hands[0].actions) - 1
    assert record.hands[0].result["outcome"] in ("knock", "gin", "undercut")
    # the knock line dropped: the showdown comes where it should be
    assert "a knock line should follow" in _refused([*lines[:-3], *lines[-2:]], len(lines) - 2)


def test_an_unfinished_game_is_a_record_that_says_so(tmp_path: Path, monkeypatch,
                                                     capsys) -> None:
    """``ginsim play`` stopped at its first prompt (end of input) still writes its
    record: the hand under way without a showdown, the end saying why."""
    def end_of_input(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", end_of_input)
    path = tmp_path / "mine.jsonl"
    assert main(["play", "--bot", "simple", "--seed", "4", "--record", str(path)]) == 0
    said = " ".join(capsys.readouterr().out.split())  # wrapped to the window
    assert "Game ended: input closed after 0 finished hands" in said
    assert f"Game record written to {path}" in said
    record = read_record(path)
    assert len(record.hands) == 1 and record.hands[0].result is None
    assert record.end["over"] is False and record.score is None
    # the same name again is refused before anything is played, the file kept
    before = path.read_bytes()
    assert main(["play", "--bot", "simple", "--record", str(path)]) == 2
    assert "already exists" in capsys.readouterr().err and path.read_bytes() == before


def test_play_names_a_new_record_file_by_default(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    for _ in range(2):
        assert main(["play", "--bot", "simple"]) == 1
    files = sorted(tmp_path.glob("ginsim-game-*.jsonl"))
    assert len(files) == 2  # the second never overwrites the first
    for path in files:
        assert read_record(path).end["stopped"]


def test_match_record_writes_one_valid_file_per_game(tmp_path: Path, capsys) -> None:
    folder, csv = tmp_path / "games", tmp_path / "games.csv"
    assert main(["match", "--a", "simple", "--b", "memory2", "--games", "4", "--rules",
                 "eaai", "--seed", "3", "--record", str(folder), "--csv", str(csv)]) == 0
    assert f"game records written to {folder}" in capsys.readouterr().out
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"game-{g:04d}.jsonl" for g in range(4)]
    rows = [line.split(",") for line in csv.read_text().splitlines()]
    head = rows[0]
    for path, row in zip(files, rows[1:], strict=True):
        record = read_record(path)
        assert [s["spec"] for s in record.seats] == ["simple", "memory2"]
        scores = [int(row[head.index("score_a")]), int(row[head.index("score_b")])]
        assert list(record.score.scores) == scores
        assert record.score.hands == int(row[head.index("hands")])
    # a directory holding files is refused in one line, nothing written into it
    assert main(["match", "--games", "1", "--record", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds files" in err
    assert len(list(folder.iterdir())) == 4


def test_a_forfeited_game_is_recorded_with_its_fault() -> None:
    records: dict[int, list[dict]] = {}
    # a program that echoes its first message as its answer: no "action", a fault at
    # the first decision, with hand 0 dealt
    echo = "exec:python -c \"import sys; print(sys.stdin.readline(), flush=True)\""
    result = play_match("simple", echo, 1, "eaai", 2, timeout_ms=5000,
                        on_record=lambda g, lines: records.__setitem__(g, lines))
    assert result.faults
    record = read_record(record_text(records[0]).splitlines())
    assert record.end["forfeit"] == 1 and record.end["winner"] == 0
    assert record.end["scores"] == [100, 0] and record.hands[-1].result is None


# --- spoiled records ------------------------------------------------------------------
def _illegal_moves(lines: tuple[str, ...], index: int) -> list[dict]:
    """Moves that are not legal at action line ``index`` (the hand replayed to there)."""
    record = read_record(list(lines))
    hand_no = json.loads(lines[index])["hand"]
    hand = record.hands[hand_no]
    first = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "action"
                 and json.loads(line)["hand"] == hand_no)
    table = hand.table(record.rules)
    for line in lines[first:index]:
        action = json.loads(line)
        card = action["card"] if action["action"] in ("discard", "knock") else None
        table.apply(Action.from_message({"action": action["action"], "card": card}))
    legal = set(table.legal_actions())
    seat = table.to_move
    moves = []
    for kind in KINDS:
        cards = range(52) if kind in ("discard", "knock") else [-1]
        for card in cards:
            if Action(kind, card) not in legal and not (kind == "pile" and
                                                        table.phase == "last_discard"):
                moves.append({"seat": seat, "action": kind,
                              "card": None if card < 0 else card_text(card)})
    moves += [{"seat": 1 - seat, "action": a.kind, "card": None if a.card < 0 else
               card_text(a.card)} for a in legal]  # a legal move, out of turn
    return moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_record_spoiled_in_one_line_is_refused_naming_it(data) -> None:
    lines = list(_record_lines())
    kinds = [json.loads(line)["type"] for line in lines]
    spoil = data.draw(st.sampled_from(["truncate", "version", "duplicate", "illegal",
                                       "scores"]))
    if spoil == "truncate":
        index = data.draw(st.integers(0, len(lines) - 1))
        lines[index] = lines[index][:data.draw(st.integers(1, len(lines[index]) - 1))]
        _refused(lines, index + 1)
        return
    if spoil == "version":
        index = 0
        header = json.loads(lines[0])
        header["version"] = data.draw(st.one_of(st.integers(-10**6, 10**6), st.text(max_size=5),
                                                st.none()).filter(lambda v: v != RECORD_VERSION))
        lines[0] = json.dumps(header)
        assert "version" in _refused(lines, 1)
        return
    if spoil == "duplicate":
        index = data.draw(st.sampled_from([i for i, k in enumerate(kinds) if k == "deal"]))
        deal = json.loads(lines[index])
        places = [deal["hands"][0], deal["hands"][1], deal["stock"]]
        a, b = data.draw(st.lists(st.integers(0, 2), min_size=2, max_size=2, unique=True))
        i = data.draw(st.integers(0, len(places[a]) - 1))
        j = data.draw(st.integers(0, len(places[b]) - 1))
        places[a][i] = places[b][j]
        lines[index] = json.dumps(deal)
        assert "dealt twice" in _refused(lines, index + 1)
        return
    if spoil == "scores":
        index = data.draw(st.sampled_from([i for i, k in enumerate(kinds)
                                           if k in ("deal", "showdown")]))
        line = json.loads(lines[index])
        line["scores"][data.draw(st.integers(0, 1))] += data.draw(st.integers(1, 500))
        lines[index] = json.dumps(line)
        assert "do not follow" in _refused(lines, index + 1)
        return
    index = data.draw(st.sampled_from([i for i, k in enumerate(kinds) if k == "action"]))
    action = json.loads(lines[index])
    action.update(data.draw(st.sampled_from(_illegal_moves(tuple(lines), index))))
    lines[index] = json.dumps(action)
    assert "illegal" in _refused(lines, index + 1)


def test_impossible_records_name_their_line_and_reason() -> None:
    lines = list(_record_lines())
    deal = json.loads(lines[1])
    deal["dealer"] = 1 - deal["dealer"]
    assert "give it to seat" in _refused([lines[0], json.dumps(deal), *lines[2:]], 2)
    assert "without its end line" in _refused(lines[:-1], len(lines))
    assert "after the end line" in _refused([*lines, lines[-1]], len(lines) + 1)
    showdown = next(i for i, line in enumerate(lines) if '"showdown"' in line)
    assert "its showdown line should follow" in _refused(lines[:showdown], showdown + 1)
    shown = json.loads(lines[showdown])
    shown["points"] = shown["points"][::-1]
    assert "replays to" in _refused([*lines[:showdown], json.dumps(shown),
                                     *lines[showdown + 1:]], showdown + 1)
    end = json.loads(lines[-1])
    end["over"] = False
    assert "not over" in _refused([*lines[:-1], json.dumps(end)], len(lines))
    with pytest.raises(RecordError, match="^the record is empty"):
        read_record([])


def test_a_missing_or_odd_file_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        read_record(tmp_path / "none.jsonl")
    with pytest.raises(RecordError, match="is a directory"):
        read_record(tmp_path)
    (tmp_path / "bin.jsonl").write_bytes(b'{"type": "header"}\n\xff\xfe\n')
    with pytest.raises(RecordError, match="^line 2: not UTF-8"):
        read_record(tmp_path / "bin.jsonl")
    write_record(tmp_path / "x.jsonl", [{"type": "deal"}])
    with pytest.raises(RecordError, match="^line 1: not a ginsim game record"):
        read_record(tmp_path / "x.jsonl")


# --- transcripts ----------------------------------------------------------------------
def _transcript(monkeypatch, rules: str = "eaai", seed: int = 3) -> tuple[list[str], dict]:
    """Side b's protocol lines of one in-process game (as scripts/protocol_transcript.py
    prints them: ``->`` referee, ``<-`` answer), and the game's row."""
    lines = log_seat_b(monkeypatch)
    result = play_match("memory2", "simple", 1, rules, seed)
    return lines, result.games[0]


@pytest.mark.parametrize("rules", ["eaai", "oklahoma"])
def test_a_transcript_of_one_seat_is_accepted(rules: str, monkeypatch) -> None:
    lines, row = _transcript(monkeypatch, rules)
    record = read_record(lines)
    assert record.seat == 1 and record.score is not None
    assert list(record.score.points) == [row["points_a"], row["points_b"]]
    assert len(record.hands) == row["hands"]
    # the other seat's stock draws stay hidden
    assert any(a["action"] == "stock" and a["card"] is None and a["seat"] == 0
               for h in record.hands for a in h.actions)


def test_a_spoiled_transcript_is_refused_naming_its_line(monkeypatch) -> None:
    lines, _ = _transcript(monkeypatch)
    answer = next(i for i, line in enumerate(lines) if line.startswith("<- ")
                  and '"discard"' in line)
    spoiled = [*lines[:answer], '<- {"action":"discard","card":"ZZ"}', *lines[answer + 1:]]
    assert "not legal here" in _refused(spoiled, answer + 1)
    shown = next(i for i, line in enumerate(lines) if '"type":"showdown"' in line)
    message = json.loads(lines[shown][3:])
    message["points"] = message["points"][::-1]
    spoiled = [*lines[:shown], "-> " + json.dumps(message), *lines[shown + 1:]]
    assert "replays to" in _refused(spoiled, shown + 1)
    hand = next(i for i, line in enumerate(lines) if '"type":"hand"' in line)
    message = json.loads(lines[hand][3:])
    message["cards"][1] = message["cards"][0]
    spoiled = [*lines[:hand], "-> " + json.dumps(message), *lines[hand + 1:]]
    assert "dealt 2 times" in _refused(spoiled, hand + 1)
    assert "not a whole JSON object" in _refused([*lines[:4], lines[4][:12], *lines[5:]], 5)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=4)
                     | st.sampled_from(["KD", "AS", "stock", "knock", "discard", "deal"]),
                     lambda inner: st.lists(inner, max_size=3), max_leaves=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_field_changed_is_read_or_refused_in_one_line(data) -> None:
    """Whatever one field of one line becomes, the reader replays the record or
    refuses it with a RecordError: never another exception."""
    lines = list(_record_lines())
    index = data.draw(st.integers(0, len(lines) - 1))
    line = json.loads(lines[index])
    key = data.draw(st.sampled_from(sorted(line)))
    line[key] = data.draw(_JSON)
    lines[index] = json.dumps(line)
    try:
        read_record(lines)
    except RecordError as exc:
        assert "\n" not in str(exc) and exc.line >= 1


@lru_cache(maxsize=1)
def _transcript_lines() -> tuple[str, ...]:
    patch = pytest.MonkeyPatch()
    try:
        return tuple(_transcript(patch, "oklahoma", 5)[0])
    finally:
        patch.undo()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_field_of_a_transcript_changed_is_read_or_refused_in_one_line(data) -> None:
    lines = list(_transcript_lines())
    index = data.draw(st.integers(0, len(lines) - 1))
    line = json.loads(lines[index][3:])
    key = data.draw(st.sampled_from(sorted(line)))
    line[key] = data.draw(_JSON)
    lines[index] = lines[index][:3] + json.dumps(line)
    try:
        read_record(lines)
    except RecordError as exc:
        assert "\n" not in str(exc) and exc.line >= 1


@pytest.mark.parametrize("argv,words", [
    (["play", "--record", "no/such/dir/game.jsonl"], "does not exist"),
    (["play", "--record", ""], "--record is empty"),
    (["play", "--record", "."], "is a directory"),
    (["match", "--games", "1", "--record", ""], "--record is empty"),
    (["match", "--games", "1", "--record", "no/such/dir/games"], "does not exist"),
])
def test_bad_record_options_exit_2_with_one_line(argv, words, tmp_path, monkeypatch,
                                                 capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
    assert list(tmp_path.iterdir()) == []  # nothing played, nothing written


def test_match_record_into_a_file_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "games").write_text("mine")
    assert main(["match", "--games", "1", "--record", str(tmp_path / "games")]) == 2
    assert "is a file" in capsys.readouterr().err
    assert (tmp_path / "games").read_text() == "mine"
