"""The step-by-step Table and the agents (issue 23): the kernel's hands step by step,
every illegal move refused, the cards conserved after every move."""

import json

import numpy as np
import pytest

import ginsim
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import parse_cards
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import Rules
from ginsim.game.state import (
    HS_SIZE,
    POSITION_END,
    POSITION_START,
    ST_DECK,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PILE,
    ST_PILE_LEN,
    ST_POS,
)
from ginsim.simulator.machine.board_nb import apply_discard_nb
from ginsim.simulator.machine.deal_nb import deal_nb
from ginsim.simulator.machine.errors import ERR_KNOCK_LIMIT
from ginsim.simulator.machine.history_replay import parse_history
from ginsim.simulator.play.engine import play_records
from ginsim.table.agents import Agent, decide_message, hand_message, play_hand
from ginsim.table.table import Action, IllegalAction, Table, view_event

KNOCKING = [name for name in RULES_PRESETS if not Rules.preset(name).mahjong]
PAIRS = [("simple", "memory2"), ("random", "gin_hunter"), ("memory1", "chart"),
         ("equilibrium", "pile_wary"),
         ("early_knocker", "simple:draw=improve")]


@pytest.mark.parametrize("preset", KNOCKING)
def test_agents_at_a_table_replay_simulate(preset):
    """Every knocking preset: hands played step by step by ginsim strategies (Agents fed
    the protocol's messages at a Table) give the kernel's record row for row."""
    # game=0: the Agents are told a score (0-0), at which game=1 would knock by the score
    # chart, and simulate plays the hand's chart.
    a, b = (spec + (",game=0" if ":" in spec else ":game=0")
            for spec in PAIRS[KNOCKING.index(preset) % len(PAIRS)])
    hands = 16
    records, _ = play_records(a, b, stop=hands, seed=23, rules=Rules.preset(preset))
    for h in range(hands):
        table = Table(preset, seed=23, hand=h, dealer=h % 2)
        play_hand(table, [Agent.from_spec(a, preset), Agent.from_spec(b, preset)])
        expected = {name: records[h][name].item() for name in records.dtype.names}
        assert table.record() == expected, (preset, h)


def _conserved(table: Table) -> None:
    hs = table.hs
    parts = [table.hand_of(0), table.hand_of(1), table.pile(),
             [int(c) for c in hs[ST_DECK + hs[ST_POS]:ST_DECK + 52]]]
    cards = [c for part in parts for c in part]
    assert sorted(cards) == list(range(52))


@pytest.mark.parametrize("preset", ["modern", "oklahoma", "eleven", "last_discard", "big_gin"])
def test_random_legal_play_conserves_cards_and_ends(preset):
    """Uniformly random legal moves: after every apply the 52 cards are each in exactly
    one place, the seat to act has a legal move, and the hand ends and scores."""
    rng = np.random.default_rng(7)
    for h in range(6):
        table = Table(preset, seed=5, hand=h, dealer=h % 2)
        _conserved(table)
        while table.to_move is not None:
            legal = table.legal_actions()
            assert legal
            table.apply(legal[rng.integers(len(legal))])
            _conserved(table)
        result = table.result()
        assert result["outcome"] in ("knock", "gin", "undercut", "big_gin", "dead")
        assert table.legal_actions() == []
        json.dumps(result)
        json.dumps(table.observation(0))


def _oklahoma_three() -> Table:
    """Seat a (non-dealer) holds deadwood 4 (4D) after melds; the upcard 3H sets the
    knock limit 3; the stock's first card is KD."""
    mine = parse_cards("AS 2S 3S 5H 6H 7H 7C 8C 9C 4D")
    up, first = parse_cards("3H KD")
    rest = [c for c in range(52) if c not in (*mine, up, first)]
    return Table.from_deal("oklahoma", (mine, rest[:10]), up, [first, *rest[10:]], dealer=1)


def test_every_illegal_move_is_refused_in_one_line():
    table = _oklahoma_three()
    assert table.knock_limit == 3
    cases = []

    def refused(action, *words, seat=None):
        before = table.hs[POSITION_START:POSITION_END].copy()
        with pytest.raises(IllegalAction) as err:
            table.apply(action, seat)
        message = str(err.value)
        assert "\n" not in message and all(w in message for w in words), message
        assert np.array_equal(before, table.hs[POSITION_START:POSITION_END])  # unchanged
        cases.append(message)

    refused("stock", "take or pass")
    refused("pass", "out of turn", seat=1)
    table.apply("pass")
    table.apply("pass")
    refused("pile", "from the stock")  # both passed: the stock only
    table.apply("s")
    refused("stock", "already drew")  # drawing twice
    refused("discard QC", "not held")
    refused("knock KD", "knock limit 3", "deadwood 4")
    refused("knock 4D", "knock limit 3")
    refused("big gin", "big gin")
    assert Action("knock", parse_cards("KD")[0]) not in table.legal_actions()
    table.apply("KD")
    top = table.pile()[-1]
    assert table.to_move == 1
    table.apply("pile")
    refused(Action("discard", top), "just taken from the pile")
    while table.to_move is not None:
        table.apply(table.legal_actions()[0])
    refused("stock", "the hand is over")
    assert len(cases) == 10


def test_kernel_refuses_a_knock_above_the_hands_limit():
    """apply_discard_nb itself: a knock keeping more than hs[ST_KNOCK_LIMIT] returns
    -ERR_KNOCK_LIMIT and leaves the position as it was."""
    rules = Rules.preset("oklahoma")
    table = _oklahoma_three()
    hs = np.zeros(HS_SIZE, dtype=np.int64)
    hs[ST_DECK:ST_DECK + 52] = table.hs[ST_DECK:ST_DECK + 52]
    deal_nb(hs, 1, rules.packed(), 0)
    assert hs[ST_KNOCK_LIMIT] == 3
    hs[ST_HAND] |= 1 << parse_cards("KD")[0]
    before = hs.copy()
    assert apply_discard_nb(hs, 0, parse_cards("KD")[0], 4, True, False,
                            rules.packed()) == -ERR_KNOCK_LIMIT
    assert np.array_equal(before, hs)  # the kernel path: the whole hand state unchanged
    assert apply_discard_nb(hs, 0, parse_cards("KD")[0], 4, False, False, rules.packed()) >= 0
    assert hs[ST_PILE + hs[ST_PILE_LEN] - 1] == parse_cards("KD")[0]
    assert card_tables(rules) is not None


def test_views_hide_the_other_hand_and_read_back_as_history():
    table = Table("modern", seed=3, hand=0, dealer=0)
    while table.to_move is not None and len(table.events) < 12:
        table.apply(table.legal_actions()[0])
    for seat in (0, 1):
        view = table.observation(seat)
        assert view["hand"] == [ginsim.format_cards([c]) for c in table.hand_of(seat)]
        hist = parse_history(view["history"])
        assert hist.stock_left == table.stock_left
        for event, seen in zip(table.events, table.events_for(seat), strict=True):
            hidden = event["action"] == "stock" and event["seat"] != seat
            assert (seen["card"] is None) == hidden


def test_action_text_round_trips():
    for text in ("take", "pass", "stock", "pile", "discard KD", "knock 4S", "knock", "big gin"):
        assert Action.parse(text).text() == text
    assert Action.parse("s") == Action("stock") and Action.parse("P") == Action("pile")
    assert Action.parse("kd") == Action("discard", parse_cards("KD")[0])
    with pytest.raises(IllegalAction, match="bad card"):
        Action.parse("discard ZZ")
    with pytest.raises(ValueError, match="Mahjong"):
        Table("mahjong")


@pytest.mark.parametrize("preset,a,b", [("modern", "mc:rollouts=8,particles=16", "simple"),
                                        ("eleven", "memory2", "mc:rollouts=8,particles=16")])
def test_mc_agents_replay_simulate(preset, a, b):
    """The mc player as an agent, from its own view of the hand (the other hand and the
    stock unknown to it), makes the hand loop's choices: the same records."""
    records, _ = play_records(a, b, stop=4, seed=5, rules=Rules.preset(preset))
    for h in range(4):
        table = Table(preset, seed=5, hand=h, dealer=h % 2)
        play_hand(table, [Agent.from_spec(a, preset), Agent.from_spec(b, preset)])
        expected = {name: records[h][name].item() for name in records.dtype.names}
        assert table.record() == expected, (preset, h)
    with pytest.raises(ValueError, match="oracle"):
        Agent.from_spec("mc:oracle=1")


def test_a_knock_reply_carries_the_melds_the_showdown_lays():
    """The Agent's knock reply names the knocker's melds; for a knock (not gin) they are
    the ones the kernel's showdown lays (its least-exposure arrangement)."""
    checked = 0
    for h in range(40):
        table = Table("modern", seed=9, hand=h, dealer=h % 2)
        agents = [Agent.from_spec("simple"), Agent.from_spec("memory2")]
        for seat, agent in enumerate(agents):
            agent.handle(hand_message(table, seat))
        reply = None
        while table.to_move is not None:
            reply = agents[table.to_move].handle(decide_message(table))
            for event in table.apply(Action.from_message(reply)):
                for seat, agent in enumerate(agents):
                    agent.handle(view_event(event, seat))
        result = table.result()
        if result["outcome"] in ("knock", "undercut"):
            assert sorted(reply["melds"]) == sorted(result["melds"]), h
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("kwargs,words", [
    ({"seed": -1}, "seed must be a whole number in 0..2**64-1, got -1"),
    ({"seed": 2**64}, "seed must be a whole number in 0..2**64-1, got 18446744073709551616"),
    ({"seed": [1]}, "seed must be a whole number in 0..2**64-1, got [1]"),
    ({"seed": 1.5}, "seed must be a whole number in 0..2**64-1, got 1.5"),
    ({"seed": True}, "seed must be a whole number in 0..2**64-1, got True"),
    ({"hand": 2**63}, "hand must be a whole number in 0..2**62, got 9223372036854775808"),
    ({"hand": -1}, "hand must be a whole number in 0..2**62, got -1"),
    ({"hand": 1.7}, "hand must be a whole number in 0..2**62, got 1.7"),
    ({"dealer": True}, "dealer must be a whole number in 0..1, got True"),
    ({"dealer": 2}, "dealer must be a whole number in 0..1, got 2"),
    ({"rules": [1]}, "rules must be a Rules object, a preset name or a spec"),
    ({"rules": "mahjong"}, "the Table plays knocking gin"),
], ids=lambda v: str(v)[:30])
def test_table_arguments_are_checked_as_the_cli_checks_them(kwargs, words):
    with pytest.raises(ValueError) as err:
        Table(**kwargs)
    assert type(err.value) is ValueError and words in str(err.value)
    assert "\n" not in str(err.value)


def test_table_takes_every_seed_and_hand_in_range():
    for seed, hand in ((0, 0), (2**64 - 1, 2**62), (np.uint64(2**64 - 1), np.int64(7))):
        table = Table("modern", seed, hand, dealer=1)
        assert len(table.hand_of(0)) == len(table.hand_of(1)) == 10 and table.dealer == 1
    assert Table(seed=2**64 - 1).hand_of(0) != Table(seed=2**63 - 1).hand_of(0)


@pytest.mark.parametrize("call,words", [
    (lambda t: t.apply(Action("discard", 99)), "action card must be a card 0..51 (or -1"),
    (lambda t: t.apply(Action("discard", True)), "action card must be a card 0..51"),
    (lambda t: t.apply(Action("fold")), "action kind must be one of take, pass"),
    (lambda t: t.apply(5), "action must be an Action or its text"),
    (lambda t: t.apply("x" * 10**7), "is 10,000,000 characters, no action text is over 40"),
    (lambda t: t.apply("pass", seat=True), "seat must be a whole number in 0..1, got True"),
    (lambda t: t.apply("pass", seat=2), "seat must be a whole number in 0..1, got 2"),
    (lambda t: t.observation(5), "seat must be a whole number in 0..1, got 5"),
    (lambda t: t.observation(1.0), "seat must be a whole number in 0..1, got 1.0"),
    (lambda t: t.hand_of(-1), "seat must be a whole number in 0..1, got -1"),
    (lambda t: t.history(2), "seat must be a whole number in 0..1, got 2"),
    (lambda t: t.events_for(None), "seat must be a whole number in 0..1, got None"),
], ids=range(12))
def test_table_methods_check_their_arguments_and_change_nothing(call, words):
    table = Table("modern", 3)
    before = table.hs.copy()
    with pytest.raises(ValueError) as err:
        call(table)
    message = str(err.value)
    assert words in message and "\n" not in message and len(message) < 200, message[:300]
    assert np.array_equal(before, table.hs) and table.events == []


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "7", None])
def test_agent_seeds_are_checked_as_the_cli_checks_them(seed):
    with pytest.raises(ValueError, match=r"^seed must be a whole number in 0\.\.2\*\*64-1"):
        Agent.from_spec("memory2", seed=seed)
    with pytest.raises(ValueError, match=r"^seed must be a whole number"):
        Agent.from_spec("mc:rollouts=8", seed=seed)


def test_agent_arguments_refused_in_one_line_and_the_top_seed_taken():
    with pytest.raises(ValueError, match="rules must be a Rules object"):
        Agent.from_spec("memory2", rules=[1])
    with pytest.raises(ValueError, match="expected a strategy preset name"):
        Agent.from_spec(None)
    assert Agent.from_spec("memory2", seed=2**64 - 1).seed == 2**64 - 1
