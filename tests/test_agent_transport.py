"""The agent protocol's transport: the codec, and external agents that answer late,
badly or not at all become one-line faults, with the process killed and reaped."""

import io
import sys

import pytest

from ginsim.table.external import AgentFault, ExternalAgent
from ginsim.table.protocol import ProtocolError, answer_text, decode, encode, serve

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
