"""The agent protocol's transport: the codec, and external agents that answer late,
badly or not at all become one-line faults, with the process killed and reaped."""

import io
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from agent_scripts import first_legal_agent

from ginsim.table.external import BYE_WAIT_S, AgentFault, ExternalAgent
from ginsim.table.protocol import (
    MAX_LINE_BYTES,
    READ_CHUNK,
    LineReader,
    ProtocolError,
    answer_text,
    decode,
    encode,
    serve,
)

PY = sys.executable
DECIDE = {"type": "decide", "phase": "offer", "legal": ["take", "pass"], "stock_left": 31,
          "timeout_ms": 300}


def agent(script: str, tmp_path, name: str = "b") -> ExternalAgent:
    path = tmp_path / "agent.py"
    path.write_text(script)
    side = ExternalAgent(f"{PY} {path}", name)
    side.start()
    return side


ANSWER_PASS = ("import sys, json\n"
               "for line in sys.stdin:\n"
               "    m = json.loads(line)\n"
               "    if m['type'] == 'decide': print(json.dumps({'action': 'pass'}), flush=True)\n")


def test_codec_round_trip_and_errors() -> None:
    message = {"type": "event", "seat": 1, "action": "discard", "card": "KD"}
    assert decode(encode(message)) == message and encode(message).endswith("\n")
    with pytest.raises(ProtocolError, match="bad JSON"):
        decode("{not json")
    with pytest.raises(ProtocolError, match="expected a JSON object"):
        decode("[1, 2]")
    legal = ["discard KD", "discard 7H", "knock 7H"]
    assert answer_text({"action": "knock", "card": "7h"}, legal) == "knock 7H"
    assert answer_text({"action": "discard", "card": "10H"}, ["discard TH"]) == "discard TH"
    with pytest.raises(ProtocolError, match="'knock KD', which is not legal here"):
        answer_text({"action": "knock", "card": "KD"}, legal)


def test_serve_answers_each_decision() -> None:
    class Passer:
        def __init__(self) -> None:
            self.seen: list[str] = []

        def handle(self, message):
            self.seen.append(message["type"])
            return {"action": "pass"} if message["type"] == "decide" else None

    lines = [encode({"type": "start"}), encode(DECIDE), "\n", encode({"type": "bye"}),
             encode(DECIDE)]
    out = io.StringIO()
    passer = Passer()
    assert serve(passer, io.StringIO("".join(lines)), out) == 3
    assert passer.seen == ["start", "decide"] and out.getvalue() == '{"action":"pass"}\n'


def test_an_agent_that_answers(tmp_path) -> None:
    side = agent(ANSWER_PASS, tmp_path)
    side.send({"type": "start"})
    assert side.ask(DECIDE, 2000, "offer") == {"action": "pass"}
    proc = side.proc
    side.close()
    assert proc.returncode == 0  # it read "bye" and exited


@pytest.mark.parametrize("script,what", [
    ("import time, sys; sys.stdin.readline(); time.sleep(30)",
     "answered late (nothing within 300 ms)"),
    ("import sys; sys.stdin.readline(); print('{oops', flush=True)", "sent bad JSON"),
    ("import sys; sys.stdin.readline(); sys.stderr.write('boom\\n'); sys.exit(3)",
     "crashed (exit code 3); its last words: boom"),
])
def test_faults_name_the_agent_and_the_event(script: str, what: str, tmp_path) -> None:
    side = agent(script, tmp_path)
    side.start_grace_ms = 0  # no start-up allowance: the first answer is due in 300 ms
    proc = side.proc
    with pytest.raises(AgentFault) as fault:
        side.ask(DECIDE, 300, "game 4, hand 2, seat 1 to offer")
    assert str(fault.value).startswith("agent b ") and what in str(fault.value)
    assert "(game 4, hand 2, seat 1 to offer)" in str(fault.value)
    assert proc.returncode is not None and side.proc is None  # killed and reaped


def test_an_agent_that_reads_nothing_cannot_block_the_referee(tmp_path) -> None:
    side = agent("import time; time.sleep(30)", tmp_path)
    side.write_timeout_s = 0.3
    proc = side.proc
    with pytest.raises(AgentFault, match="read nothing for 0.3 s"):
        for _ in range(100_000):
            side.send({"type": "event", "seat": 0, "action": "stock", "card": None,
                       "padding": "x" * 200}, "event")
    assert proc.returncode is not None


def test_a_command_that_does_not_run() -> None:
    with pytest.raises(ValueError, match="cannot run 'no-such-agent-xyz'"):
        ExternalAgent("no-such-agent-xyz --flag", "a").start()
    with pytest.raises(ValueError, match="exec: needs a command"):
        ExternalAgent("  ", "a")


def test_a_slow_starter_gets_its_start_up_allowance_once(tmp_path) -> None:
    slow = ("import json, sys, time\n"
            "time.sleep(0.6)\n"
            "for line in sys.stdin:\n"
            "    if json.loads(line)['type'] == 'decide':\n"
            "        time.sleep(0.6)\n"
            "        print(json.dumps({'action': 'pass'}), flush=True)\n")
    side = agent(slow, tmp_path)
    side.start_grace_ms = 5000
    assert side.ask(DECIDE, 300, "first") == {"action": "pass"}  # 1.2 s, within the grace
    with pytest.raises(AgentFault, match=r"answered late \(nothing within 300 ms\)"):
        side.ask(DECIDE, 300, "second")  # 0.6 s against 300 ms


def test_a_silent_starter_is_told_of_its_allowance(tmp_path) -> None:
    side = agent("import time; time.sleep(30)", tmp_path)
    side.start_grace_ms = 400
    with pytest.raises(AgentFault, match=r"nothing within 400 ms, its first answer's start"):
        side.ask(DECIDE, 100, "first")


# --- bounds: one reader for the referee and ginsim agent ----------------------------

DEEP = "[" * 5000 + "]" * 5000
DIGITS = '{"action": "pass", "n": ' + "7" * 5000 + "}"


@pytest.mark.parametrize("line,words", [
    (DEEP, "JSON nested 5,000 deep (at most 8)"),
    ('{"a": ' + "[" * 9 + "]" * 9 + "}", "JSON nested 10 deep (at most 8)"),
    (DIGITS, "an integer of 5,000 digits (at most 20)"),
    ('{"seed": -' + "1" * 21 + "}", "an integer of 21 digits"),
    ('{"x": NaN}', "NaN is not JSON"),
    (b'{"card": "\xffD"}', "not UTF-8 text (byte 10)"),
    ("{" + '"k": "' + "x" * MAX_LINE_BYTES + '"}', "a line of 100,009 bytes (at most 100,000)"),
], ids=["deep", "nine_deep", "digits", "negative_digits", "nan", "not_utf8", "long"])
def test_decode_refuses_what_is_out_of_bounds_in_one_short_line(line, words) -> None:
    with pytest.raises(ProtocolError) as err:
        decode(line)
    assert words in str(err.value) and "\n" not in str(err.value)
    assert len(str(err.value)) < 300


def test_bounds_keep_every_message_the_protocol_sends() -> None:
    assert decode('{"seed": 18446744073709551615, "melds": [["AS", "2S", "3S"]]}') == {
        "seed": 2**64 - 1, "melds": [["AS", "2S", "3S"]]}
    assert decode('{"seed": -12345678901234567890}')["seed"] == -12345678901234567890


def test_an_endless_line_is_refused_before_it_is_held_whole() -> None:
    """A read that never sends a newline is refused once the bound has come in, having
    read at most one chunk past it."""
    served = [0]

    def endless(size: int) -> bytes:
        served[0] += size
        assert served[0] < 10 * MAX_LINE_BYTES, "still reading: the line is not bounded"
        return b"x" * size

    with pytest.raises(ProtocolError, match="a line of more than 100,000 bytes without its"):
        list(LineReader(endless).lines())
    assert served[0] <= MAX_LINE_BYTES + READ_CHUNK


def test_lines_come_whole_across_chunks_and_the_last_without_a_newline() -> None:
    parts = iter([b'{"a"', b': 1}\n{"b": 2}\n\n{"c"', b": 3}", b""])
    assert list(LineReader(lambda n: next(parts)).lines()) == [b'{"a": 1}', b'{"b": 2}', b"",
                                                               b'{"c": 3}']


class Quiet:
    """An agent that answers nothing (serve's bounds come before any agent)."""

    def handle(self, message):
        return None


@pytest.mark.parametrize("text,words", [
    (encode({"type": "start"}) + DEEP + "\n", "message 2: JSON nested 5,000 deep"),
    (encode({"type": "start"}) + DIGITS + "\n", "message 2: an integer of 5,000 digits"),
    (encode({"type": "start"}) + "x" * (3 * MAX_LINE_BYTES),
     "message 2: a line of more than 100,000 bytes without its end"),
], ids=["deep", "digits", "endless"])
def test_serve_names_the_message_out_of_bounds(text: str, words: str) -> None:
    with pytest.raises(ProtocolError) as err:
        serve(Quiet(), io.StringIO(text), io.StringIO())
    assert str(err.value).startswith(words) and "\n" not in str(err.value)


def test_serve_reads_a_binary_stream_as_it_comes() -> None:
    lines = encode({"type": "start"}) + encode(DECIDE) + encode({"type": "bye"})
    out = io.StringIO()
    assert serve(Quiet(), io.BufferedReader(io.BytesIO(lines.encode())), out) == 3


@pytest.mark.parametrize("answer,what", [
    ("sys.stdout.write('[' * 5000 + ']' * 5000 + '\\n')", "sent JSON nested 5,000 deep"),
    ("sys.stdout.write('{\"action\": \"pass\", \"n\": ' + '7' * 5000 + '}\\n')",
     "sent an integer of 5,000 digits"),
    ("sys.stdout.write('{\"action\": \"pass\"}' * 50000)",
     "sent a line of more than 100,000 bytes without its end"),
    ("sys.stdout.buffer.write(b'{\"action\": \"pa\\xffss\"}\\n')", "sent a line that is not UTF-8"),
], ids=["deep", "digits", "endless", "not_utf8"])
def test_an_agent_sending_what_is_out_of_bounds_faults_at_once(answer, what, tmp_path) -> None:
    script = ("import sys, time\n"
              "sys.stdin.readline()\n"
              f"{answer}\n"
              "sys.stdout.flush()\n"
              "time.sleep(30)\n")
    side = agent(script, tmp_path)
    proc = side.proc
    t0 = time.monotonic()
    with pytest.raises(AgentFault) as fault:
        side.ask(DECIDE, 20_000, "game 0, hand 0, its offer decision")
    assert what in str(fault.value) and "\n" not in str(fault.value)
    assert len(str(fault.value)) < 400
    assert time.monotonic() - t0 < 10  # found when read, not at the 20 s deadline
    assert proc.returncode is not None and side.proc is None


# --- process groups: nothing a match started outlives it ------------------------------

#: A wrapper shell script that starts the agent, and once the agent has gone, gets stuck
#: (a sleep it starts in the background and waits for); it notes every pid it starts.
WRAPPER = """#!/bin/sh
echo $$ >> "{pids}"
"{python}" "{agent}"
sleep 600 &
echo $! >> "{pids}"
wait
"""
def orphaning_agent(pids: Path, late_at: int) -> str:
    """An agent that leaves a child behind (started, never waited for), notes its pids in
    ``pids``, and answers each decision with the first legal move (late at ``late_at``)."""
    return first_legal_agent(late_at, "time.sleep(600)", prelude=(
        'child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])\n'
        f'with open({str(pids)!r}, "a") as f:\n'
        '    f.write(f"{os.getpid()}\\n{child.pid}\\n")'))


def wrapped_agent(tmp_path: Path, late_at: int = 0) -> tuple[str, Path]:
    """``exec:`` of a stuck wrapper around an orphaning agent, and the file of their pids."""
    pids = tmp_path / "pids"
    script = tmp_path / "orphaning.py"
    script.write_text(orphaning_agent(pids, late_at))
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text(WRAPPER.format(pids=pids, python=PY, agent=script))
    return f"exec:sh {wrapper}", pids


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper has ended)."""
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def survivors(pids_file: Path, wait_s: float = 5.0) -> list[int]:
    """The noted pids still running after at most ``wait_s`` (killed processes take a
    moment to be gone); every wait is bounded."""
    pids = [int(p) for p in pids_file.read_text().split()]
    deadline = time.monotonic() + wait_s
    while True:
        left = [p for p in pids if alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


@pytest.fixture()
def no_leftovers():
    """Kill whatever a failing test left running (pids noted in files it registers)."""
    files: list = []
    yield files.append
    for pids_file in files:
        if pids_file.exists():
            for pid in (int(p) for p in pids_file.read_text().split()):
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)


def test_a_closed_agent_leaves_no_process_behind(tmp_path, no_leftovers) -> None:
    """At the end (bye): the agent exits, its child lives on and the wrapper gets stuck;
    close kills the whole group."""
    command, pids = wrapped_agent(tmp_path)
    no_leftovers(pids)
    side = ExternalAgent(command[len("exec:"):], "b")
    side.start()
    assert side.ask(DECIDE, 20_000, "offer") == {"action": "take"}
    t0 = time.monotonic()
    side.close()
    assert time.monotonic() - t0 < BYE_WAIT_S + 3
    assert len(pids.read_text().split()) >= 3  # wrapper, agent, its child (and the sleep)
    assert survivors(pids) == []


def test_a_faulted_agent_leaves_no_process_behind(tmp_path, no_leftovers) -> None:
    """On a timeout the whole group goes at once: the wrapper, the agent, its child."""
    command, pids = wrapped_agent(tmp_path, late_at=1)
    no_leftovers(pids)
    side = ExternalAgent(command[len("exec:"):], "b")
    side.start()
    side.start_grace_ms = 0
    with pytest.raises(AgentFault, match="answered late"):
        side.ask(DECIDE, 300, "offer")
    assert side.proc is None and survivors(pids) == []
