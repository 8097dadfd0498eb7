"""Fuzzing the table's surfaces (issue 43): protocol lines and message streams, external
agents' answers, ``ginsim play``'s typed lines and the Table API. Whatever goes in, each
case asserts its outcome: a valid result of the right shape, or a refusal of one short
line of the promised kind (a ProtocolError naming the message, an AgentFault naming the
agent, a ValueError naming the argument) that changed nothing."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ginsim.cli.play_view import MAX_ECHO_CHARS, play_session
from ginsim.table.actions import KINDS
from ginsim.table.agents import Agent
from ginsim.table.external import AgentFault, ExternalAgent
from ginsim.table.game_table import TableGame
from ginsim.table.protocol import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_LINE_BYTES,
    ProtocolError,
    decode,
    encode,
    serve,
)
from ginsim.table.table import Action, IllegalAction, Table

MAX_ERROR_CHARS = 400  # a refusal is one line, and a short one


def fuzz(examples: int) -> settings:
    """Hypothesis settings of one fuzz test: ``examples`` inputs, no deadline."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


def check_error(exc: BaseException, *kinds: type) -> None:
    """A refusal of one of ``kinds`` (ValueError and TypeError by default), one short line."""
    assert isinstance(exc, kinds or (ValueError, TypeError)), repr(exc)[:300]
    text = str(exc)
    assert text and "\n" not in text and len(text) < MAX_ERROR_CHARS, text[:600]


def outcome(call, *kinds: type):
    """(result, None) or (None, the checked refusal), tallied for the statistics."""
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 (checked: the promised kind, one short line)
        check_error(exc, *kinds)
        event(f"refused: {type(exc).__name__}")
        return None, exc
    event("taken")
    return result, None


junk = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.binary(max_size=8),
    st.text(max_size=8), st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 0, 1, 2, 51, 52, 99, 2**31, 2**63 - 1, 2**63, 2**64, 10**18]),
    st.lists(st.integers(0, 3), max_size=2),
)

# --- protocol lines ---------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**25), 10**25),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12)


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _max_digits(value) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return len(str(abs(value)))
    parts = value.values() if isinstance(value, dict) else value if isinstance(
        value, list) else ()
    return max(map(_max_digits, parts), default=0)


hostile_lines = st.one_of(
    st.integers(1, 20_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 12).map(lambda n: '{"a": ' + "[" * n + "]" * n + "}"),
    st.integers(1, 6000).map(lambda n: '{"n": ' + "9" * n + "}"),
    st.integers(1, 6000).map(lambda n: '{"n": -' + "9" * n + "}"),
    st.sampled_from(['{"x": NaN}', '{"x": -Infinity}', "{", "", "[]", "null", '"x"',
                     '{"a": 1} trailing', "{'a': 1}"]),
    st.integers(MAX_LINE_BYTES - 20, MAX_LINE_BYTES + 20).map(
        lambda n: '{"k": "' + "x" * max(n - 10, 0) + '"}'),
    st.binary(max_size=40),
)


@fuzz(150)
@given(st.one_of(json_values.map(lambda v: json.dumps(v)),
                 st.dictionaries(st.text(max_size=6), json_values, max_size=5).map(
                     lambda v: json.dumps(v)),
                 hostile_lines))
def test_protocol_lines(line):
    """decode takes exactly the JSON objects within the bounds (round trip intact) and
    refuses the rest in one ProtocolError line."""
    message, exc = outcome(lambda: decode(line), ProtocolError)
    data = line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")
    try:  # Python's own reading, NaN and Infinity (which JSON lacks) refused
        parsed = json.loads(data.decode("utf-8"), parse_constant=lambda name: 1 / 0)
    except (ValueError, RecursionError, ZeroDivisionError):
        parsed = exc  # not JSON: it must have been refused
    within = (len(data) <= MAX_LINE_BYTES and isinstance(parsed, dict)
              and _depth(parsed) <= MAX_DEPTH and _max_digits(parsed) <= MAX_INT_DIGITS)
    if within:
        assert exc is None and message == parsed and decode(encode(message)) == message
    else:
        assert exc is not None


START = {"type": "start", "protocol": 1, "rules": "eaai", "seat": 0, "game": 0}
HAND = {"type": "hand", "game": 0, "hand": 0, "seat": 0, "dealer": 1,
        "cards": "AS 2S 3S 7H 7D 7C 9C TC JC KD".split(), "upcard": "8C",
        "knock_limit": 10, "scores": [0, 0], "seed": None}
DECIDE = {"type": "decide", "phase": "offer", "legal": ["take", "pass"], "stock_left": 31}
FIELDS = ["type", "seat", "dealer", "hand", "cards", "upcard", "knock_limit", "multiplier",
          "seed", "phase", "legal", "action", "card", "rules", "game", "scores"]


def spoiled(message: dict) -> st.SearchStrategy[dict]:
    """``message`` as it is, or with one field set to junk, or one dropped."""
    return st.one_of(
        st.just(message),
        st.tuples(st.sampled_from(FIELDS), junk).map(lambda kv: {**message, kv[0]: kv[1]}),
        st.sampled_from(sorted(message)).map(
            lambda k: {f: v for f, v in message.items() if f != k}))


message_streams = st.lists(st.one_of(spoiled(START), spoiled(HAND), spoiled(DECIDE)),
                           min_size=1, max_size=5)


@fuzz(120)
@given(message_streams, st.sampled_from(["", "[" * 3000, '{"n": ' + "1" * 5000 + "}"]))
def test_protocol_message_streams(messages, tail):
    """``ginsim agent``'s loop on junk streams: every decide answered with a legal-looking
    reply, or one ProtocolError line naming the message by its number."""
    text = "".join(json.dumps(m, default=repr) + "\n" for m in messages) + tail
    out = io.StringIO()
    count, exc = outcome(lambda: serve(Agent.from_spec("simple", "eaai"), io.StringIO(text),
                                       out), ProtocolError)
    if exc is None:
        assert not tail and count == len(messages)
        for reply in out.getvalue().splitlines():
            assert json.loads(reply)["action"] in KINDS
    else:
        assert str(exc).startswith("message "), str(exc)


# --- external agents --------------------------------------------------------------------

answers = st.one_of(
    st.sampled_from([b'{"action": "pass"}\n', b'{"action": "take"}\n', b"\n",
                     b'{"action": "pass"}']),
    json_values.map(lambda v: json.dumps(v).encode() + b"\n"),
    hostile_lines.map(lambda v: (v if isinstance(v, bytes) else v.encode()) + b"\n"),
    st.integers(MAX_LINE_BYTES, 3 * MAX_LINE_BYTES).map(lambda n: b"y" * n),
)
ANSWERING = ("import sys, time\n"
             "sys.stdin.readline()\n"
             "sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())\n"
             "sys.stdout.flush()\n"
             "time.sleep(30)\n")


@fuzz(25)
@given(answers)
def test_external_agent_answers(tmp_path_factory, answer):
    """A program's answer line, whatever its bytes: the object it sent, or an AgentFault
    naming the agent and the decision, with the program killed and reaped."""
    where = tmp_path_factory.mktemp("agent")
    (where / "agent.py").write_text(ANSWERING)
    (where / "answer").write_bytes(answer)
    side = ExternalAgent(f"{sys.executable} {where / 'agent.py'} {where / 'answer'}", "b")
    side.start_grace_ms = 3000  # an answer without its newline waits this long, not 30 s
    side.start()
    proc = side.proc
    try:
        reply, exc = outcome(lambda: side.ask(DECIDE, 3000, "game 1, its offer decision"),
                             AgentFault)
    finally:
        side.kill()
    assert proc.returncode is not None and side.proc is None
    line = answer.split(b"\n")[0] if b"\n" in answer else None
    try:
        expected = decode(line) if line is not None else None
    except ProtocolError:
        expected = None
    if expected is not None:
        assert reply == expected
    else:
        assert str(exc).startswith("agent b ") and "(game 1, its offer decision)" in str(exc)


# --- ginsim play ---------------------------------------------------------------------------

typed = st.one_of(
    st.sampled_from(["s", "p", "stock", "pile", "take", "pass", "knock", "big gin", "KD",
                     "10H", "knock 7C", "hint", "", "   ", "discard", "knock ZZ"]),
    st.text(max_size=30),
    st.integers(40, 200_000).map(lambda n: "Q" * n),
    st.text(alphabet="KQJT98AS♠♥\x00\x1b\t ", min_size=1, max_size=60),
)


@fuzz(40)
@given(st.lists(typed, max_size=12), st.integers(0, 50))
def test_play_input(lines, seed):
    """Any typed lines: each refusal is one line of bounded length, the game goes on,
    and it stops cleanly at ``quit`` or the end of input."""
    feed = iter([*lines, "quit"])
    shown: list[str] = []
    game = TableGame("simple", "modern", seed, target=25)
    code = play_session(game, lambda prompt: next(feed, None), shown.append)
    assert code in (0, 1) and (code == 0 or shown[-1].startswith("Game stopped after"))
    refusals = [s for s in shown if s.startswith("  Not allowed:")]
    assert all("\n" not in s and len(s) <= MAX_ECHO_CHARS + 200 for s in refusals)
    event(f"{len(refusals)} refusals")


# --- the Table API -------------------------------------------------------------------------

table_kwargs = st.fixed_dictionaries({
    "rules": st.sampled_from(["modern", "oklahoma", "eaai", "straight"]),
    "seed": st.integers(0, 2**64 - 1), "hand": st.integers(0, 2**62),
    "dealer": st.integers(0, 1),
}).flatmap(lambda valid: st.one_of(  # as is, or with one argument spoiled
    st.just(valid), st.tuples(st.sampled_from(sorted(valid)), junk).map(
        lambda kv: {**valid, kv[0]: kv[1]})))


@fuzz(150)
@given(table_kwargs)
def test_table_arguments(kwargs):
    """Table(...) deals ten cards a seat for any arguments in range and refuses the rest
    in one ValueError line naming the argument."""
    table, exc = outcome(lambda: Table(**kwargs), ValueError)
    seed = 0 if kwargs["seed"] is None else kwargs["seed"]  # None: no seed (from_deal's)
    ok = (kwargs["rules"] in (None, "modern", "oklahoma", "eaai", "straight")
          and all(isinstance(v, int) and not isinstance(v, bool)
                  for v in (seed, kwargs["hand"], kwargs["dealer"]))
          and 0 <= seed < 2**64 and 0 <= kwargs["hand"] <= 2**62
          and kwargs["dealer"] in (0, 1))
    if ok:
        assert exc is None and table.dealer == kwargs["dealer"]
        assert len(table.hand_of(0)) == len(table.hand_of(1)) == 10
    else:
        assert exc is not None
        assert any(name in str(exc) for name in ("rules", "seed", "hand", "dealer")), exc


moves = st.one_of(
    st.builds(Action, st.one_of(st.sampled_from(KINDS), junk),
              st.one_of(st.integers(-3, 60), junk)),
    st.sampled_from(["s", "p", "take", "pass", "knock", "big gin", "KD", "discard 7H"]),
    st.text(max_size=12), junk,
)


@fuzz(60)
@given(st.integers(0, 2**64 - 1), st.lists(st.tuples(moves, st.one_of(st.none(), junk)),
                                           max_size=25), st.one_of(st.integers(0, 1), junk))
def test_table_moves_and_views(seed, tries, seat):
    """Any moves and seats: a move either plays (its events name the mover, the cards
    stay 52) or is refused in one line and changes nothing; views answer seats 0 and 1
    only."""
    table = Table("modern", seed)
    for action, who in tries:
        before = table.hs.copy()
        events, exc = outcome(lambda a=action, w=who: table.apply(a, w), ValueError)
        if exc is None:
            assert events and all(e["seat"] in (0, 1) for e in events)
        else:
            assert isinstance(exc, (IllegalAction, ValueError))
            assert np.array_equal(before, table.hs)
        if table.to_move is None:
            break
        held = len(table.hand_of(0)) + len(table.hand_of(1))
        assert held + len(table.pile()) + table.stock_left == 52
    view, exc = outcome(lambda: table.observation(seat), ValueError)
    if type(seat) is int and seat in (0, 1):  # 0.0 and True are refused, as other junk
        assert exc is None and view["seat"] == seat and len(view["hand"]) in (10, 11)
    else:
        assert exc is not None and "seat" in str(exc)
