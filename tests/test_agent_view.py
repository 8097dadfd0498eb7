"""The seat's checked view of a hand (ginsim/table/seat_view.py): what an agent refuses.

Worked cases: each impossible message of issue 43 (item 1) refused with one line, by
``Agent.handle`` (a ValueError, the agent left as it was) and by ``ginsim agent`` (exit
2, one line naming the message). Properties: the streams a seat is told in real hands
(played at a Table, every knocking preset, moves chosen at random among the legal ones)
are all accepted; the same streams with one message spoiled (a card changed to one the
seat holds, an event dropped or told twice, a phase swapped, a hand a card short or
over, a legal move the position does not allow) are refused, in one line, at the
spoiled message or the next, with the view unchanged by the refusal.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginsim.game.cards import mask_to_cards
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import Rules
from ginsim.game.state import ST_DECK, ST_HAND, ST_POS
from ginsim.table.actions import TEXT
from ginsim.table.agents import Agent, decide_message, hand_message
from ginsim.table.protocol import ProtocolError, serve
from ginsim.table.seat_fields import dealt_cards
from ginsim.table.seat_view import DECIDE_PHASES
from ginsim.table.table import Table, view_event

KNOCKING = [name for name in RULES_PRESETS if not Rules.preset(name).mahjong]
#: Seat 0, the non-dealer, is offered 8C first (the messages of tests/test_match.py).
HAND = {"type": "hand", "game": 0, "hand": 0, "seat": 0, "dealer": 1,
        "cards": "AS 2S 3S 7H 7D 7C 9C TC JC KD".split(), "upcard": "8C",
        "knock_limit": 10, "scores": [0, 0], "seed": None}


def event(seat: int, action: str, card: str | None = None) -> dict:
    return {"type": "event", "seat": seat, "action": action, "card": card}


def decide(phase: str, *legal: str) -> dict:
    return {"type": "decide", "phase": phase, "legal": list(legal), "stock_left": 31}


#: Both pass 8C; seat 0 draws 4D from the stock and throws it; seat 1 draws, unseen.
OPENING = [HAND, event(0, "pass", "8C"), event(1, "pass", "8C"), event(0, "stock", "4D"),
           event(0, "discard", "4D"), event(1, "stock")]

#: (name, messages, words): the last message is refused, its error holds ``words``.
REFUSED = [
    ("no cards", [{**HAND, "cards": []}], "hand: 0 cards, but seat 0 (the non-dealer) is "
                                          "dealt 10 under these rules"),
    ("nine cards", [{**HAND, "cards": HAND["cards"][:9]}], "hand: 9 cards"),
    ("twelve cards", [{**HAND, "cards": [*HAND["cards"], "5H", "6H"]}], "hand: 12 cards"),
    ("ten aces", [{**HAND, "cards": ["AS"] * 10}], "hand: AS is dealt 10 times"),
    ("a card twice", [{**HAND, "cards": [*HAND["cards"][:9], "AS"]}],
     "hand: AS is dealt 2 times"),
    ("ten and eleven", [{**HAND, "cards": ["10S", *HAND["cards"][:8], "TS"]}],
     "hand: TS is dealt 2 times"),
    ("the upcard held", [{**HAND, "upcard": "KD"}],
     "hand: the upcard KD is also in the seat's cards"),
    ("no upcard", [{**HAND, "upcard": None}], "hand: no upcard, but these rules turn one up"),
    ("opponent throws a held card", [*OPENING, event(1, "discard", "AS")],
     "event seat 1 discard AS: seat 1 cannot hold AS, this seat holds it"),
    ("opponent throws a card of the pile", [*OPENING, event(1, "discard", "4D")],
     "event seat 1 discard 4D: seat 1 cannot hold 4D, it is in the discard pile"),
    ("opponent throws the passed upcard", [*OPENING, event(1, "discard", "8C")],
     "seat 1 cannot hold 8C, it is in the discard pile"),
    ("opponent knocks with a held card", [*OPENING, event(1, "knock", "KD")],
     "event seat 1 knock KD: seat 1 cannot hold KD, this seat holds it"),
    ("stock draw of a held card", [*OPENING[:3], event(0, "stock", "AS")],
     "event seat 0 stock AS: AS cannot come from the stock, this seat holds it"),
    ("stock draw of the upcard", [*OPENING[:3], event(0, "stock", "8C")],
     "8C cannot come from the stock, it is in the discard pile"),
    ("a card drawn twice", [*OPENING, event(1, "discard", "5H"), event(0, "stock", "4D")],
     "event seat 0 stock 4D: 4D cannot come from the stock, it is in the discard pile"),
    ("a draw told twice", [*OPENING[:4], event(0, "stock", "4D")],
     "event seat 0 stock 4D: out of phase, seat 0 is to discard"),
    ("the own draw hidden", [*OPENING[:3], event(0, "stock")],
     "this seat's own stock draw names the card drawn"),
    ("a pile card that is not the top", [*OPENING, event(1, "discard", "5H"),
                                         event(0, "pile", "6H")],
     "event seat 0 pile 6H: 6H is not the pile's top card (5H)"),
    ("an own discard not held", [*OPENING[:4], event(0, "discard", "5H")],
     "event seat 0 discard 5H: this seat does not hold 5H"),
    ("a discard before the draw", [*OPENING[:3], event(0, "discard", "AS")],
     "event seat 0 discard AS: out of phase, seat 0 is to draw from the stock"),
    ("a pile draw after both passed", [*OPENING[:3], event(0, "pile", "8C")],
     "event seat 0 pile 8C: no pile draw now (both passed the upcard"),
    ("out of turn", [HAND, event(1, "pass", "8C")],
     "event seat 1 pass 8C: out of turn, the upcard 8C is offered to seat 0"),
    ("an event before any hand", [event(1, "pass", "8C")],
     "event seat 1 pass 8C: no hand has been dealt"),
    ("big gin off", [*OPENING, event(1, "big_gin")], "big gin is off under these rules"),
    ("a discard without its card", [*OPENING, event(1, "discard")],
     "event seat 1 discard: a discard names its card"),
    ("decide before any hand", [decide("discard", "discard KD")],
     "decide discard: no hand has been dealt"),
    ("decide discard with ten cards", [HAND, decide("discard", "discard AS")],
     "decide discard: out of phase, the upcard 8C is offered to seat 0 (this seat, seat 0, "
     "holds 10 cards)"),
    ("decide in the other seat's turn", [*OPENING[:2], decide("offer", "take", "pass")],
     "decide offer: out of phase, the upcard 8C is offered to seat 1"),
    ("an empty legal list", [HAND, decide("offer")], "decide offer: legal must list the "
                                                     "moves allowed now, got []"),
    ("no legal list", [HAND, {"type": "decide", "phase": "offer"}],
     "legal must list the moves allowed now, got None"),
    ("a discard not held", [*OPENING[:4], decide("discard", "discard AS", "discard KH")],
     "decide discard: legal names 'discard KH', which this position does not allow (this "
     "seat does not hold KH, it has not been seen)"),
    ("a discard of the pile", [*OPENING[:4], decide("discard", "discard 8C")],
     "(this seat does not hold 8C, it is in the discard pile)"),
    ("a knock above the limit", [*OPENING[:4], decide("discard", "knock AS")],
     "the deadwood kept is above the knock limit 10"),
    ("a stock draw in the offer", [HAND, decide("offer", "take", "pass", "stock")],
     "legal names 'stock', which this position does not allow (not a move of the offer "
     "phase)"),
    ("a pile draw after both passed", [*OPENING[:3], decide("draw", "stock", "pile")],
     "legal names 'pile', which this position does not allow (both passed the upcard"),
    ("a legal list longer than any", [HAND, decide("offer", *["take"] * 200)],
     "decide offer: legal lists 200 moves, more than any position has (23)"),
    ("a legal entry that is no move", [HAND, decide("offer", "take", "fold")],
     "decide offer: legal names 'fold', which is not a move"),
    ("a phase that is none", [HAND, decide("zzz", "take")],
     "a decide message's phase is one of offer, draw, discard, last_discard, got 'zzz'"),
    ("seat 1.0 at the start", [{"type": "start", "seat": 1.0}],
     "start: a seat is 0 or 1, got 1.0"),
    ("seat True at the start", [{"type": "start", "seat": True}],
     "start: a seat is 0 or 1, got True"),
    ("seat 1.0 in the hand", [{**HAND, "seat": 1.0}], "hand: a seat is 0 or 1, got 1.0"),
    ("dealer True in the hand", [{**HAND, "dealer": True}],
     "hand: a dealer is 0 or 1, got True"),
    ("seat 1.0 in an event", [HAND, event(1.0, "pass", "8C")],
     "event: a seat is 0 or 1, got 1.0"),
    ("seat True in an event", [HAND, event(True, "pass", "8C")],
     "event: a seat is 0 or 1, got True"),
]


@pytest.mark.parametrize("messages,words", [case[1:] for case in REFUSED],
                         ids=[case[0] for case in REFUSED])
def test_an_impossible_message_is_refused_in_one_line(messages, words):
    agent = Agent.from_spec("simple", "modern")
    for message in messages[:-1]:
        agent.handle(message)
    before = agent.hs.copy()
    with pytest.raises(ValueError) as err:
        agent.handle(messages[-1])
    text = str(err.value)
    assert words in text and "\n" not in text and len(text) < 300, text
    assert np.array_equal(before, agent.hs)


@pytest.mark.parametrize("messages,words", [case[1:] for case in REFUSED[::4]],
                         ids=[case[0] for case in REFUSED[::4]])
def test_ginsim_agent_refuses_them_with_exit_2_and_one_line(messages, words, monkeypatch,
                                                             capsys):
    from ginsim.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(m) + "\n"
                                                          for m in messages)))
    assert main(["agent", "--strategy", "simple", "--rules", "modern"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: message {len(messages)} cannot be followed (")
    assert words in err and err.count("\n") == 1, err


def test_the_reported_decide_exits_2_instead_of_answering(monkeypatch, capsys):
    """The issue's example: a discard asked of an agent that holds no cards."""
    from ginsim.cli import main

    line = '{"type":"decide","phase":"discard","legal":["discard KD"]}\n'
    monkeypatch.setattr(sys, "stdin", io.StringIO(line))
    assert main(["agent", "--strategy", "simple"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: message 1 cannot be followed (decide discard: "
                                   "no hand has been dealt")


@pytest.mark.parametrize("message", [None, "hand", [HAND], 7])
def test_a_message_that_is_no_object_is_refused_in_one_line(message):
    with pytest.raises(TypeError, match=r"^a protocol message is a JSON object \(a dict\), "
                                        r"got "):
        Agent.from_spec("simple").handle(message)


def test_the_hand_size_follows_the_rules_deal():
    """The eleven-card deal: 11 cards to the non-dealer, 10 to the dealer, no upcard."""
    eleven = Rules.coerce("eleven")
    assert [dealt_cards(eleven, seat, 1) for seat in (0, 1)] == [11, 10]
    assert [dealt_cards(Rules.coerce("modern"), seat, 1) for seat in (0, 1)] == [10, 10]
    eleven_hand = {**HAND, "cards": [*HAND["cards"], "5H"], "upcard": None}
    Agent.from_spec("simple", "eleven").handle(eleven_hand)
    for message, words in (
            ({**eleven_hand, "cards": HAND["cards"]},
             "hand: 10 cards, but seat 0 (the non-dealer) is dealt 11"),
            ({**eleven_hand, "dealer": 0},
             "hand: 11 cards, but seat 0 (the dealer) is dealt 10"),
            ({**eleven_hand, "upcard": "8C"}, "but the eleven-card deal turns none up")):
        with pytest.raises(ValueError, match=re.escape(words)):
            Agent.from_spec("simple", "eleven").handle(message)


def test_a_refused_event_leaves_an_mc_agents_memory_as_it_was():
    agent = Agent.from_spec("mc:rollouts=4,particles=4", "modern")
    for message in OPENING:
        agent.handle(message)
    events, hs = int(agent.mem.n_events[0]), agent.hs.copy()
    with pytest.raises(ValueError, match="seat 1 cannot hold AS"):
        agent.handle(event(1, "discard", "AS"))
    assert int(agent.mem.n_events[0]) == events and np.array_equal(hs, agent.hs)
    agent.handle(event(1, "discard", "5H"))
    assert int(agent.mem.n_events[0]) == events + 1


def test_a_draw_past_the_stock_floor_is_refused():
    """More cards than the deck holds: a dead hand (the stock at its floor) draws no more."""
    for seed in range(200):
        streams, table = played_hand("modern", seed, 0, random.Random(seed))
        if table.result()["outcome"] == "dead":
            break
    else:
        pytest.fail("no dead hand in 200 random hands")
    agent = Agent.from_spec("simple", "modern")
    for message in streams[0]:
        agent.handle(message)
    next_card = TEXT[int(table.hs[ST_DECK + table.hs[ST_POS]])]  # unseen: still in the stock
    with pytest.raises(ValueError, match=f"^event seat 0 stock {next_card}: the hand is over$"):
        agent.handle(event(0, "stock", next_card))


def test_the_final_discard_is_taken_only_to_knock():
    """The 50th-card turn: the seat that takes the final discard (a pile draw) must knock;
    a plain discard after it is refused, a knock accepted."""
    for seed in range(1000):  # seed 484 is the first whose 50th-card turn has a knock
        streams, table = played_hand("last_discard", seed, 0, random.Random(seed))
        for seat in (0, 1):
            at = [i for i, m in enumerate(streams[seat]) if m.get("phase") == "last_discard"
                  and any(move.startswith("knock") for move in m["legal"])]
            if at:
                break
        if at:
            break
    else:
        pytest.fail("no random hand of 1,000 could knock in the 50th-card turn")
    agent = Agent.from_spec("simple", "last_discard")
    for message in streams[seat][:at[0] + 1]:
        agent.handle(message)
    top = TEXT[agent.view.pile_top()]
    held = [TEXT[c] for c in mask_to_cards(int(agent.hs[ST_HAND + seat]))]
    agent.handle(event(seat, "pile", top))
    with pytest.raises(ValueError, match=f"^event seat {seat} discard {held[0]}: the final "
                                         f"discard is taken only to knock$"):
        agent.handle(event(seat, "discard", held[0]))
    knock = next(m.split()[1] for m in streams[seat][at[0]]["legal"] if m.startswith("knock"))
    agent.handle(event(seat, "knock", knock))
    assert agent.view.position() == "the hand is over"


# --- properties over real hands ---------------------------------------------------------


def played_hand(preset: str, seed: int, hand: int, rng: random.Random
                ) -> tuple[list[list[dict]], Table]:
    """One hand at a Table, every move picked at random among the legal ones (a knock
    when one is legal, half the time); each seat's stream as the referee tells it."""
    table = Table(preset, seed, hand, hand % 2)
    streams = [[hand_message(table, seat)] for seat in (0, 1)]
    while table.to_move is not None:
        seat = table.to_move
        streams[seat].append(decide_message(table))
        moves = table.legal_texts()
        knocks = [m for m in moves if m.startswith("knock") or m == "big gin"]
        move = rng.choice(knocks if knocks and rng.random() < 0.5 else moves)
        for told in table.apply(move, seat):
            for s in (0, 1):
                streams[s].append(view_event(told, s))
    return streams, table


hands = st.tuples(st.sampled_from(KNOCKING), st.integers(0, 2**32), st.integers(0, 50),
                  st.sampled_from([0, 1]))
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def feed(preset: str, messages: list[dict]) -> Agent:
    agent = Agent.from_spec("simple", preset)
    for message in messages:
        agent.handle(message)
    return agent


@SETTINGS
@given(hands)
def test_the_streams_of_real_hands_are_accepted(hand):
    preset, seed, number, seat = hand
    streams, _ = played_hand(preset, seed, number, random.Random(seed))
    agent = Agent.from_spec("simple", preset)
    for message in streams[seat]:
        reply = agent.handle(message)
        assert (reply is None) == (message["type"] != "decide")
    out = io.StringIO()
    text = "".join(json.dumps(m) + "\n" for m in streams[seat])
    assert serve(Agent.from_spec("simple", preset), io.StringIO(text), out) == len(
        streams[seat])


SPOILS = ("card", "drop", "twice", "phase", "hand_size", "legal")


def spoil(stream: list[dict], how: str, pick: random.Random, preset: str
          ) -> tuple[list[dict], int] | None:
    """``stream`` with one message spoiled as ``how`` says, and the index of the first
    message that must be refused; None when the stream has nothing to spoil so."""
    events = [i for i, m in enumerate(stream) if m["type"] == "event"]
    decides = [i for i, m in enumerate(stream) if m["type"] == "decide"]
    out = [dict(m) for m in stream]
    if how == "hand_size":
        cards = list(out[0]["cards"])
        if pick.random() < 0.5:
            cards.pop(pick.randrange(len(cards)))
        else:
            cards.append(pick.choice([TEXT[c] for c in range(52) if TEXT[c] not in cards
                                      and TEXT[c] != out[0]["upcard"]]))
        out[0]["cards"] = cards
        return out, 0
    if how == "drop":  # the hand or an event, with a message after it
        i = pick.choice([0] + [e for e in events if e < len(stream) - 1])
        return out[:i] + out[i + 1:], i
    if how == "twice" and events:
        i = pick.choice(events)
        return out[:i + 1] + [dict(out[i])] + out[i + 1:], i + 1
    if how == "phase" and decides:
        i = pick.choice(decides)
        out[i]["phase"] = pick.choice([p for p in DECIDE_PHASES if p != out[i]["phase"]])
        return out, i
    me = out[0]["seat"]
    if how == "card":
        candidates = [i for i in events if out[i]["action"] != "big_gin"]
        if not candidates:
            return None
        i = pick.choice(candidates)
        held = held_before(preset, stream, i)
        if out[i]["seat"] == me and out[i]["action"] in ("discard", "knock"):
            out[i]["card"] = pick.choice([TEXT[c] for c in range(52) if c not in held])
        else:
            out[i]["card"] = TEXT[pick.choice(held)]
        return out, i
    if how == "legal" and decides:
        i = pick.choice(decides)
        held = held_before(preset, stream, i)
        out[i]["legal"] = [*out[i]["legal"], "discard " + pick.choice(
            [TEXT[c] for c in range(52) if c not in held])]
        return out, i
    return None


def held_before(preset: str, stream: list[dict], i: int) -> list[int]:
    """The cards the seat holds before message ``i`` of its stream."""
    agent = feed(preset, stream[:i])
    return mask_to_cards(int(agent.hs[ST_HAND + agent.seat]))


@SETTINGS
@given(hands, st.sampled_from(SPOILS), st.integers(0, 2**32))
def test_a_stream_with_one_message_spoiled_is_refused(hand, how, choice):
    preset, seed, number, seat = hand
    streams, _ = played_hand(preset, seed, number, random.Random(seed))
    spoiled = spoil(streams[seat], how, random.Random(choice), preset)
    if spoiled is None:
        return
    messages, first = spoiled
    agent = Agent.from_spec("simple", preset)
    refused = None
    for i, message in enumerate(messages):
        before = agent.hs.copy()
        try:
            agent.handle(message)
        except ValueError as exc:
            refused = i, str(exc)
            assert np.array_equal(before, agent.hs), (how, i)
            break
    assert refused is not None, (how, first)
    assert refused[0] == first, (how, first, refused)
    assert "\n" not in refused[1] and len(refused[1]) < 300, refused[1]
    text = "".join(json.dumps(m) + "\n" for m in messages)
    with pytest.raises(ProtocolError) as err:
        serve(Agent.from_spec("simple", preset), io.StringIO(text), io.StringIO())
    assert str(err.value).startswith(f"message {refused[0] + 1} cannot be followed (")
    assert "\n" not in str(err.value)
