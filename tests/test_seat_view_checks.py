"""The seat view held to the machine (issue 64, items 1-3): one replay, the hand's terms,
the answer, the scores.

Worked cases, one per mechanism: moves the hand machine refuses (the card just taken
thrown back, by either seat; this seat's knock with 65 deadwood; its big gin with cards
unmelded), ``hand`` fields that contradict the rules (refused) or are missing (derived),
answers chosen from the ``legal`` list as given, and the ``scores`` of a ``hand``
message, each refused in one line with the agent left as it was. Properties over real
hands (played at a Table, moves picked at random): the same stream with one discard
turned into another card, a knock or a big gin claim (either seat), or with the hand's
knock limit or multiplier changed, is refused at that message exactly when the machine
refuses the move (the other seat's deadwood aside, which the seat cannot see); an
answer is always one of the moves listed, whatever subset the referee lists.
"""

from __future__ import annotations

import io
import json
import random
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_agent_view import HAND, KNOCKING, SETTINGS, decide, event, hands, played_hand

from ginsim.game.state import (
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
    Board,
)
from ginsim.simulator.machine.errors import ERR_KNOCK_LIMIT, ERR_NOT_HELD
from ginsim.simulator.machine.step_nb import checked_step_nb
from ginsim.table.actions import KINDS, TEXT, Action, card_of
from ginsim.table.agents import Agent, decide_message, hand_message
from ginsim.table.protocol import ProtocolError, serve
from ginsim.table.seat_fields import MAX_LEGAL_MOVES
from ginsim.table.table import Table

#: Seat 0 holds nothing that melds: discarding KS after drawing 3D keeps QH JD 9C 8S 7H
#: 6D 5C 4S 3H 3D, 10 + 10 + 9 + 8 + 7 + 6 + 5 + 4 + 3 + 3 = 65 deadwood.
LOOSE = {**HAND, "cards": "KS QH JD 9C 8S 7H 6D 5C 4S 3H".split(), "upcard": "2C"}
LOOSE_DRAWN = [LOOSE, event(0, "pass", "2C"), event(1, "pass", "2C"), event(0, "stock", "3D")]
#: Both pass 8C; seat 0 draws 4D and throws it; seat 1 draws unseen and throws 5H.
OPENING = [HAND, event(0, "pass", "8C"), event(1, "pass", "8C"), event(0, "stock", "4D"),
           event(0, "discard", "4D"), event(1, "stock"), event(1, "discard", "5H")]

#: (name, rules, messages, words): the last message is one the machine refuses.
MACHINE_REFUSES = [
    ("own take thrown back", "modern", [HAND, event(0, "take", "8C"), event(0, "discard", "8C")],
     "event seat 0 discard 8C: 8C was just taken from the pile and may not go back at once"),
    ("other's take thrown back", "modern",
     [HAND, event(0, "pass", "8C"), event(1, "take", "8C"), event(1, "discard", "8C")],
     "event seat 1 discard 8C: 8C was just taken from the pile"),
    ("other's pile draw thrown back", "modern",
     [*OPENING, event(0, "stock", "QH"), event(0, "discard", "QH"), event(1, "pile", "QH"),
      event(1, "discard", "QH")],
     "event seat 1 discard QH: QH was just taken from the pile"),
    ("other's take knocked with", "modern",
     [HAND, event(0, "pass", "8C"), event(1, "take", "8C"), event(1, "knock", "8C")],
     "event seat 1 knock 8C: 8C was just taken from the pile"),
    ("own knock with 65 deadwood", "modern", [*LOOSE_DRAWN, event(0, "knock", "KS")],
     "event seat 0 knock KS: this seat keeps 65 deadwood, above the hand's knock limit 10"),
    ("own big gin unmelded", "big_gin", [*LOOSE_DRAWN, event(0, "big_gin")],
     "event seat 0 big_gin: big gin needs all 11 cards melded, and this seat's are not"),
]


def refused(rules: str, messages: list[dict], spec: str = "simple") -> tuple[str, Agent]:
    """The one-line error of the last message (the others accepted), the agent checked
    unchanged by the refusal."""
    agent = Agent.from_spec(spec, rules)
    for message in messages[:-1]:
        agent.handle(message)
    hs, rng, hands_seen = agent.hs.copy(), agent.rng.copy(), agent._hands_seen
    with pytest.raises(ValueError) as err:
        agent.handle(messages[-1])
    text = str(err.value)
    assert "\n" not in text and len(text) < 300, text
    assert np.array_equal(hs, agent.hs) and np.array_equal(rng, agent.rng)
    assert agent._hands_seen == hands_seen
    return text, agent


def agent_exit(rules: str, lines: list[str], monkeypatch, capsys) -> tuple[int, str]:
    """``ginsim agent``'s exit status and stderr on these input lines."""
    from ginsim.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["agent", "--strategy", "simple", "--rules", rules])
    return code, capsys.readouterr().err


# --- 1. one replay: every event through the machine's step -----------------------------


@pytest.mark.parametrize("rules,messages,words", [case[1:] for case in MACHINE_REFUSES],
                         ids=[case[0] for case in MACHINE_REFUSES])
def test_a_move_the_machine_refuses_is_refused(rules, messages, words, monkeypatch, capsys):
    text, _ = refused(rules, messages)
    assert words in text, text
    code, err = agent_exit(rules, [json.dumps(m) for m in messages], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and words in err, err
    assert err.startswith(f"error: message {len(messages)} cannot be followed (")


def test_the_legal_moves_beside_them_are_accepted():
    """The same turns with a legal move: another card thrown, a knock within the limit,
    the 50th-card knock (tests/test_agent_view.py) and big gin with every card melded."""
    agent = Agent.from_spec("simple", "modern")
    for message in [HAND, event(0, "pass", "8C"), event(1, "take", "8C"),
                    event(1, "discard", "QH"), event(0, "stock", "4D"),
                    event(0, "knock", "4D")]:  # AS 2S 3S, 7H 7D 7C, 9C TC JC; KD: 10
        agent.handle(message)
    assert agent.view.position() == "the hand is over"
    melded = {**HAND, "cards": "AS 2S 3S 4S 5H 6H 7H 8D 9D TD".split(), "upcard": "KC"}
    agent = Agent.from_spec("simple", "big_gin")
    for message in [melded, event(0, "pass", "KC"), event(1, "pass", "KC"),
                    event(0, "stock", "JD"), event(0, "big_gin")]:
        agent.handle(message)
    assert agent.view.position() == "the hand is over"


# --- 2. the hand's terms against the rules ---------------------------------------------


@pytest.mark.parametrize("rules,fields,words", [
    ("modern", {"multiplier": 2}, "hand: multiplier 2, but these rules make this hand's 1 "
                                  "(only an Oklahoma upcard doubles a hand)"),
    ("modern", {"knock_limit": 50}, "hand: knock_limit 50, but these rules make this "
                                    "hand's 10; leave it out to have it derived"),
    ("oklahoma", {"upcard": "AH", "knock_limit": 10},
     "hand: knock_limit 10, but these rules make this hand's 0 (the Oklahoma upcard AH "
     "sets it: gin only)"),
    ("oklahoma", {"upcard": "8S", "knock_limit": 8, "multiplier": 1},
     "hand: multiplier 1, but these rules make this hand's 2 (the upcard 8S is of a "
     "doubling suit)"),
    ("modern:knock_limit=8", {}, "hand: knock_limit 10, but these rules make this hand's 8"),
    ("modern", {"knock_limit": None}, "hand: knock_limit must be a whole number in 0..100, "
                                      "got None"),  # null is no value: leave it out
])
def test_hand_fields_that_contradict_the_rules_are_refused(rules, fields, words):
    text, agent = refused(rules, [{**HAND, **fields}])
    assert words in text, text
    assert not agent.view.dealt


@pytest.mark.parametrize("rules,upcard,limit,multiplier", [
    ("oklahoma", "AH", 0, 1), ("oklahoma", "8S", 8, 2), ("oklahoma", "QD", 10, 1),
    ("oklahoma:aces_must_gin=false", "AH", 1, 1), ("modern", "8S", 10, 1),
    ("modern:knock_limit=7", "QD", 7, 1)])
def test_missing_hand_fields_are_derived_from_the_rules(rules, upcard, limit, multiplier):
    """Oklahoma (docs/rules.md): the upcard's value is the knock limit, an ace gin only
    (or 1 when aces need not go gin), a spade upcard doubles the hand."""
    message = {k: v for k, v in HAND.items() if k != "knock_limit"} | {"upcard": upcard}
    agent = Agent.from_spec("simple", rules)
    agent.handle(message)
    assert (int(agent.hs[ST_KNOCK_LIMIT]), int(agent.hs[ST_MULTIPLIER])) == (limit,
                                                                              multiplier)


@pytest.mark.parametrize("preset", ["oklahoma", "tedesco", "modern"])
def test_the_derived_terms_are_the_tables(preset):
    """Hand messages without knock_limit and multiplier: the view's terms are the ones the
    Table dealt, over many upcards."""
    for seed in range(40):
        table = Table(preset, seed, seed, seed % 2)
        message = hand_message(table, seed % 2)
        del message["knock_limit"], message["multiplier"]
        agent = Agent.from_spec("simple", preset)
        agent.handle(message)
        assert int(agent.hs[ST_KNOCK_LIMIT]) == table.knock_limit
        assert int(agent.hs[ST_MULTIPLIER]) == int(table.hs[ST_MULTIPLIER])


def test_oklahoma_ace_gin_only_never_knocks_outside_legal():
    """The issue's case: Oklahoma, upcard AH, no knock_limit. Seat 0 holds AS 2S 3S, 7H 7D
    7C, 9C TC JC and draws 5H: KD would go at 5 deadwood, a knock under limit 10, but the
    hand is gin only; the answer is a discard."""
    message = {k: v for k, v in HAND.items() if k != "knock_limit"} | {"upcard": "AH"}
    held = "AS 2S 3S 5H 7H 7D 7C 9C TC JC KD".split()
    agent = Agent.from_spec("simple", "oklahoma")
    for m in [message, event(0, "pass", "AH"), event(1, "pass", "AH"), event(0, "stock", "5H")]:
        agent.handle(m)
    reply = agent.handle(decide("discard", *[f"discard {c}" for c in held]))
    assert reply["action"] == "discard", reply
    with pytest.raises(ValueError, match="above the knock limit 0"):
        agent.handle(decide("discard", "knock KD"))


# --- 3. the answer: one of the moves listed --------------------------------------------


def test_the_answer_reads_legal_case_insensitively():
    """8C makes 8C 9C TC JC with the hand: simple takes it, however legal is written."""
    for legal in (["take", "pass"], ["TAKE", "PASS"], ["Take", " pass "]):
        agent = Agent.from_spec("simple")
        agent.handle(HAND)
        assert agent.handle(decide("offer", *legal)) == {"action": "take"}, legal


def test_the_answer_is_one_of_the_moves_listed():
    """A referee that lists fewer moves than the position allows gets one of them."""
    drawn = OPENING[:4]  # seat 0 holds AS 2S 3S 4D 7H 7D 7C 9C TC JC KD
    for legal, answer in (
            (["discard 2S"], {"action": "discard", "card": "2S"}),
            # simple would knock with KD; of the two listed, 3S keeps less (17, not 18)
            (["DISCARD 2s", "discard 3S"], {"action": "discard", "card": "3S"}),
            (["pass"], {"action": "pass"})):
        agent = Agent.from_spec("simple")
        for message in (drawn if legal[0] != "pass" else [HAND]):
            agent.handle(message)
        phase = "offer" if legal[0] == "pass" else "discard"
        assert agent.handle(decide(phase, *legal)) == answer, legal
        # simple would knock with KD; a draw or offer asks it only about a listed take
        assert (agent.unlisted or {}).get("action") == (None if phase == "offer" else "knock")
    agent = Agent.from_spec("simple")
    for message in drawn:
        agent.handle(message)
    assert agent.handle(decide("discard", "discard KD", "knock KD"))["action"] == "knock"
    assert agent.unlisted is None


def test_legal_is_bounded_by_the_longest_list_of_any_position():
    """Eleven cards of three sets (each discard keeps at most 6 deadwood) under rules with
    big gin: 11 discards, 11 knocks and big gin, the longest list; one more is refused, so
    is a move listed twice."""
    sets = [card_of(t) for t in "AS AH AD AC 2S 2H 2D 2C 3S 3H".split()]
    rest = [c for c in range(52) if c not in sets and c != card_of("3D")
            and c != card_of("KC")]
    others = rest[:10]
    table = Table.from_deal("big_gin", (sets, others), card_of("KC"),
                            [card_of("3D"), *rest[10:]], dealer=1)
    for move in ("pass", "pass", "stock"):
        table.apply(move)
    assert len(table.legal_texts()) == MAX_LEGAL_MOVES == 23
    text, _ = refused("modern", [HAND, decide("offer", *["pass"] * 30)])
    assert text == "decide offer: legal lists 30 moves, more than any position has (23)"
    text, _ = refused("modern", [HAND, decide("offer", "pass", "PASS")])
    assert text == "decide offer: legal names 'PASS' twice (it lists each move allowed once)"


@SETTINGS
@given(hands, st.integers(0, 2**32))
def test_an_answer_is_always_listed(hand, choice):
    """Every decision of a real hand asked with a random subset of its legal moves, in
    random case: the answer is one of them, and no real list is longer than the bound."""
    preset, seed, number, seat = hand
    streams, _ = played_hand(preset, seed, number, random.Random(seed))
    pick = random.Random(choice)
    agent = Agent.from_spec("simple", preset)
    for message in streams[seat]:
        if message["type"] != "decide":
            agent.handle(message)
            continue
        assert len(message["legal"]) <= MAX_LEGAL_MOVES
        subset = pick.sample(message["legal"], pick.randint(1, len(message["legal"])))
        subset = [m.upper() if pick.random() < 0.5 else m for m in subset]
        answer = agent.handle({**message, "legal": subset})
        text = " ".join(w for w in (answer["action"].replace("_", " "), answer.get("card"))
                        if w)
        assert text.lower() in [m.strip().lower() for m in subset], (answer, subset)


# --- 4. the scores ---------------------------------------------------------------------

BAD_SCORES = [("['a','b']", '["a","b"]'), ("[1e400, 0]", "[1e400,0]"), ('"12"', '"12"'),
              ("[true,false]", "[true,false]"), ("[1.5,2.5]", "[1.5,2.5]"), ("[0]", "[0]"),
              ("[0,0,0]", "[0,0,0]")]


@pytest.mark.parametrize("scores", [json_text for _, json_text in BAD_SCORES],
                         ids=[name for name, _ in BAD_SCORES])
def test_bad_scores_are_refused_in_one_line(scores, monkeypatch, capsys):
    """The API (an mc agent playing for the game, its memory untouched) and ``ginsim
    agent`` refuse them alike, naming scores and what they must be."""
    words = "hand: scores must be null or two whole numbers"
    message = {**HAND, "scores": json.loads(scores)}
    agent = Agent.from_spec("mc:rollouts=4,particles=4")
    agent.handle(HAND)
    memory = agent.mem.scores.copy(), int(agent.mem.n_events[0])
    text, _ = refused("modern", [HAND, message], "mc:rollouts=4,particles=4")
    assert text.startswith(words) and "got" in text, text
    with pytest.raises(ValueError, match=words):
        agent.handle(message)
    assert np.array_equal(memory[0], agent.mem.scores)
    assert memory[1] == int(agent.mem.n_events[0])
    line = json.dumps(HAND).replace('"scores": [0, 0]', f'"scores": {scores}')
    code, err = agent_exit("modern", [line], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and words in err, err


def test_good_scores_are_read():
    agent = Agent.from_spec("mc:rollouts=4,particles=4")
    agent.handle({**HAND, "scores": [70, 85]})
    assert list(agent.mem.scores) == [1, 70, 85]
    agent.handle({**HAND, "scores": [0, 140]})  # more than the target holds: ignored
    assert list(agent.mem.scores) == [0, 0, 0]
    agent.handle({**HAND, "scores": None})
    assert list(agent.mem.scores) == [0, 0, 0]


# --- the property: streams spoiled in one message --------------------------------------


def table_before(preset: str, seed: int, number: int, stream: list[dict], i: int) -> Table:
    """The real hand's Table before message ``i`` of a seat's stream, moved by the
    stream's events (the 50th-card take joined to its knock)."""
    table = Table(preset, seed, number, number % 2)
    for message in stream[1:i]:
        if message["type"] != "event":
            continue
        kind = message["action"]
        if kind == "pile" and table.phase == "last_discard":
            continue
        card = card_of(message["card"]) if kind in ("discard", "knock") else -1
        table.apply(Action(kind, card), message["seat"])
    return table


def machine_verdict(table: Table, seat: int, viewer: int, kind: str, card: int) -> str:
    """``legal``, ``illegal``, or ``hidden``: the other seat's knock or big gin refused
    only for its deadwood or melds, which its cards (unseen by the viewer) decide."""
    board = Board(*(a.copy() for a in table.board))
    status = checked_step_nb(board, seat, KINDS.index(kind), card, table._packed,
                             table._tab)
    if status >= 0:
        return "legal"
    if seat != viewer and (status == -ERR_KNOCK_LIMIT
                           or (kind == "big_gin" and status == -ERR_NOT_HELD)):
        return "hidden"
    return "illegal"


CLAIMS = ("discard", "knock", "big_gin")


def spoil_move(stream: list[dict], preset: str, seed: int, number: int,
               pick: random.Random) -> tuple[list[dict], int, str] | None:
    """One discard of the stream turned into another discard, a knock or a big gin claim
    (by the same seat, with the card just taken, one it holds or one seen elsewhere), or
    the hand's knock limit or multiplier changed; with the index and the machine's
    verdict on it."""
    out = [dict(m) for m in stream]
    viewer = out[0]["seat"]
    if pick.random() < 0.2:
        table = Table(preset, seed, number, number % 2)
        name = pick.choice(["knock_limit", "multiplier"])
        out[0][name] = pick.randint(0, 11) if name == "knock_limit" else pick.randint(1, 2)
        true = table.knock_limit if name == "knock_limit" else int(table.hs[ST_MULTIPLIER])
        return out, 0, "legal" if out[0][name] == true else "illegal"
    turns = [i for i, m in enumerate(out) if m["type"] == "event" and m["action"] in CLAIMS]
    if not turns:
        return None
    i = pick.choice(turns)
    table = table_before(preset, seed, number, stream, i)
    if table.phase != "discard":  # the 50th-card turn: tests/test_agent_view.py
        return None
    seat = out[i]["seat"]
    kind = pick.choice(CLAIMS)
    held = [int(c) for c in table.hand_of(seat)]
    seen = held + table.pile() if seat == viewer else table.hand_of(viewer) + table.pile()
    taken = [card_of(m["card"]) for m in out[i - 2:i]
             if m["type"] == "event" and m["action"] in ("take", "pile") and m["seat"] == seat]
    pool = taken * 4 + held + (seen if seat != viewer else list(range(52)))
    card = -1 if kind == "big_gin" else pick.choice(pool)
    out[i] = {"type": "event", "seat": seat, "action": kind,
              "card": None if card < 0 else TEXT[card]}
    return out, i, machine_verdict(table, seat, viewer, kind, card)


@SETTINGS
@given(st.tuples(st.sampled_from([*KNOCKING, "big_gin", "big_gin", "oklahoma"]),
                 st.integers(0, 2**32), st.integers(0, 50), st.sampled_from([0, 1])),
       st.integers(0, 2**32))
def test_a_spoiled_claim_is_refused_exactly_when_the_machine_refuses_it(hand, choice):
    preset, seed, number, seat = hand
    streams, _ = played_hand(preset, seed, number, random.Random(seed))
    spoiled = spoil_move(streams[seat], preset, seed, number, random.Random(choice))
    if spoiled is None:
        return
    messages, at, verdict = spoiled
    agent = Agent.from_spec("simple", preset)
    refusal = None
    for i, message in enumerate(messages):
        before = agent.hs.copy()
        try:
            agent.handle(message)
        except ValueError as exc:
            refusal = i, str(exc)
            assert np.array_equal(before, agent.hs), (i, str(exc))
            assert "\n" not in str(exc) and len(str(exc)) < 300, str(exc)
            break
    if verdict == "illegal":
        assert refusal is not None and refusal[0] == at, (verdict, at, refusal)
        text = "".join(json.dumps(m) + "\n" for m in messages)
        with pytest.raises(ProtocolError, match=f"^message {at + 1} cannot be followed"):
            serve(Agent.from_spec("simple", preset), io.StringIO(text), io.StringIO())
    else:  # legal for the machine, or for every hand the seat cannot tell apart
        assert refusal is None or refusal[0] > at, (verdict, at, refusal)
    if refusal is None and verdict == "legal":  # the machine takes it, the spoil included
        # (the real hand's later moves may not follow a spoil: after it, a knock by the
        # other seat is refused only for its hidden deadwood, which the seat cannot see)
        table_before(preset, seed, number, messages, at + 1)


def test_the_spoiled_claims_meet_each_verdict():
    """The property's spoils reach all three verdicts, knocks and big gins among them."""
    seen: set[tuple[str, str]] = set()
    for seed in range(150):
        streams, _ = played_hand("big_gin", seed, seed % 7, random.Random(seed))
        spoiled = spoil_move(streams[seed % 2], "big_gin", seed, seed % 7,
                             random.Random(seed))
        if spoiled is not None and spoiled[1] > 0:
            seen.add((spoiled[0][spoiled[1]]["action"], spoiled[2]))
    assert {("knock", "illegal"), ("big_gin", "illegal"), ("discard", "illegal"),
            ("discard", "legal"), ("knock", "hidden")} <= seen, seen


def test_a_real_stream_replays_on_the_table():
    """The helper the property trusts: a real stream moves the Table to the hand's end."""
    streams, table = played_hand("last_discard", 484, 0, random.Random(484))
    replayed = table_before("last_discard", 484, 0, streams[0], len(streams[0]))
    assert replayed.result() == table.result()
    assert int(replayed.hs[ST_HAND]) == int(table.hs[ST_HAND])
    assert decide_message(replayed)["legal"] == []
