"""``ginsim match`` and ``ginsim agent``: the referee over the agent protocol, its
statistics against ``ginsim games``, and agents that fail (late, illegal, bad JSON,
crashed) forfeiting their game with one line, nothing left running."""

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from agent_scripts import first_legal_agent

from ginsim.analysis.game_stats import game_summary, play_games
from ginsim.analysis.match import match_frames, match_summary
from ginsim.game.scoring.game_scoring import GameTally, HandResult, score_game
from ginsim.game.scoring.hand_scoring_nb import OUTCOMES
from ginsim.simulator.play.game_records import play_game_hands
from ginsim.table.referee import play_match

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"exec:{sys.executable} {ROOT / 'adapters' / 'example_agent.py'}"
ENV = {"PYTHONPATH": str(ROOT)}

FAULTS = {
    "late": ("time.sleep(5)", "answered late (nothing within 300 ms)"),
    "illegal": ('print(json.dumps({"action": "knock", "card": "ZZ"}), flush=True); continue',
                "answered 'knock ZZ', which is not legal here"),
    "bad_json": ("print('{\"action\": ', flush=True); continue", "sent bad JSON"),
    "crash": ("sys.exit(7)", "crashed (exit code 7)"),
}


def test_game_tally_scores_as_the_game_kernel() -> None:
    knock, gin, dead = (OUTCOMES.index(o) for o in ("knock", "gin", "dead"))
    hands = [HandResult(1, 30, knock), HandResult(-1, 0, dead), HandResult(0, 70, gin),
             HandResult(0, 35, knock), HandResult(1, 99, knock)]
    tally = GameTally("modern")
    entered = [tally.enter(h) for h in hands[:4]]
    assert entered == [False, False, False, True] and tally.points == (105, 30)
    assert tally.score() == score_game(hands, "modern") and tally.hands == 4
    with pytest.raises(ValueError, match="the game is over"):
        tally.enter(hands[4])


def test_match_in_process_plays_the_games_of_ginsim_games() -> None:
    """One game loop: the referee's in-process match is the game kernel's games, hand
    for hand (the same deals, first dealer, seat streams, dealer moves and end)."""
    result = play_match("memory2", "simple", 40, "eaai", seed=11)
    games, hands = match_frames(result)
    assert not result.faults and len(games) == 40
    records, meta = play_game_hands("memory2", "simple", 40, 11, "eaai")
    kernel = pd.DataFrame({"game": meta[:, 0], "hand": meta[:, 1],
                           "dealer": records["dealer"], "points_a": records["points_a"],
                           "points_b": records["points_b"],
                           "outcome": [OUTCOMES[o] for o in records["outcome"]]})
    refereed = hands[["game", "hand", "dealer", "points_a", "points_b", "outcome"]]
    assert kernel.astype(str).equals(refereed.reset_index(drop=True).astype(str))
    assert len(set(kernel.groupby("game").first()["dealer"])) == 2  # the cut varies


def test_match_in_process_agrees_with_ginsim_games() -> None:
    result = play_match("memory2", "simple", 200, "eaai", seed=11)
    games, hands = match_frames(result)
    assert not result.faults and len(games) == 200
    assert (games[["score_a", "score_b"]].max(axis=1) >= 100).all()
    mine = match_summary(result).set_index("statistic")
    ref = game_summary(play_games("memory2", "simple", 20_000, seed=5, rules="eaai")
                       ).set_index("statistic")
    for key in ("p_a_wins_game", "mean_hands"):
        # the reference is 10x tighter: its value must fall in the match's 95% interval
        # (widened by the reference's own half-width)
        slack = (ref.loc[key].high - ref.loc[key].low) / 2
        assert mine.loc[key].low - slack <= ref.loc[key].value <= mine.loc[key].high + slack


def test_match_against_the_example_agent() -> None:
    result = play_match("simple", EXAMPLE, 10, "eaai", seed=2, timeout_ms=5000)
    assert not result.faults and len(result.games) == 10
    assert all(r["hands"] > 0 for r in result.games)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_faulty_agent_forfeits_with_one_line(fault: str, tmp_path: Path) -> None:
    code, expected = FAULTS[fault]
    script = tmp_path / "faulty.py"
    script.write_text(first_legal_agent(5, code))
    lines: list[str] = []
    result = play_match("simple", f"exec:{sys.executable} {script}", 3, "eaai", seed=1,
                        timeout_ms=300, on_fault=lines.append)
    # every game forfeits at its 5th decision of b (the program restarts per game)
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    assert expected in lines[0] and lines[0].startswith(f"agent b (exec:{sys.executable}")
    assert "game 0, hand 0, its " in lines[0] and "game 0 is forfeit to a" in lines[0]
    games, _ = match_frames(result)
    assert (games["forfeit"] == "b").all() and (games["winner"] == "a").all()
    assert (games["score_a"] == 100).all()


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ginsim", *args], input=stdin,
                          capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120)


def test_ginsim_agent_answers_a_decision() -> None:
    messages = [
        {"type": "start", "protocol": 1, "rules": "eaai", "seat": 0, "game": 0},
        {"type": "hand", "game": 0, "hand": 0, "seat": 0, "dealer": 1,
         "cards": "AS 2S 3S 7H 7D 7C 9C TC JC KD".split(), "upcard": "8C",
         "knock_limit": 10, "scores": [0, 0], "seed": None},
        {"type": "decide", "phase": "offer", "legal": ["take", "pass"], "stock_left": 31,
         "timeout_ms": 1000},
        {"type": "bye"},
    ]
    done = run_cli("agent", "--strategy", "simple", "--rules", "eaai",
                   stdin="".join(json.dumps(m) + "\n" for m in messages))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "take"}  # 8C makes 8-9-T-J of clubs


@pytest.mark.parametrize("args,words", [
    (["match", "--games", "0"], "--games"),
    (["match", "--a", "nosuch", "--games", "1"], "unknown strategy 'nosuch'"),
    (["match", "--b", "exec:", "--games", "1"], "exec: needs a command"),
    (["match", "--b", "exec:no-such-program-xyz", "--games", "1"], "cannot run"),
    (["match", "--b", 'exec:python "bot.py', "--games", "1"], "no closing quotation"),
    (["match", "--b", "exec:python x.py", "--timeout-ms", "9999999999999"],
     "--timeout-ms must be a whole number in 1..3,600,000"),
    (["match", "--games", "1000000000"], "games must be a whole number in 1..1,000,000"),
    (["match", "--games", "1", "--csv", ""], "--csv is empty"),
    (["match", "--games", "1", "--csv", "."], "is a directory"),
    (["match", "--games", "1", "--csv", "no/such/dir/games.csv"], "does not exist"),
    (["agent", "--rules", "vegas"], "unknown rules preset 'vegas'"),
    (["agent", "--strategy", "exec:python bot.py", "--warm"], "compiles a ginsim strategy"),
    (["agent", "--strategy", "nosuch", "--warm"], "unknown strategy 'nosuch'"),
])
def test_bad_options_exit_2_with_one_line(args: list[str], words: str, capsys) -> None:
    from ginsim.cli import main

    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("error: ")


def test_the_match_command_prints_the_games_statistics(tmp_path: Path, capsys) -> None:
    from ginsim.cli import main

    out = tmp_path / "games.csv"
    assert main(["match", "--a", "simple", "--b", "memory2", "--games", "6", "--rules",
                 "eaai", "--seed", "4", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert "rules eaai (target 100), 6 games, seed 4: simple (a) vs memory2 (b)" in text
    for words in ("P(a wins the game)", "mean margin for a", "hands per game", "shutouts",
                  "mean points per hand (95% CI", "a minus b", "forfeits: none"):
        assert words in text, words
    rows = out.read_text().splitlines()
    assert len(rows) == 7 and rows[0].startswith("game,winner,score_a,score_b,margin")


def test_programs_are_not_told_the_seed(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "logger.py"
    script.write_text(first_legal_agent(on_message=(
        f'if m["type"] == "hand":\n    open({str(log)!r}, "a").write(line)')))
    result = play_match("simple", f"exec:{sys.executable} {script}", 1, "eaai", seed=8)
    assert not result.faults
    hands = [json.loads(line) for line in log.read_text().splitlines()]
    assert hands and all(h["seed"] is None for h in hands)


def test_agent_warm_plays_the_agents_own_decisions_and_exits(monkeypatch, capsys) -> None:
    """``ginsim agent --warm`` plays a whole game through the agent's own code (every
    decision an mc agent answers goes through ``McAgent.decide``) and serves nothing."""
    from ginsim.cli import main
    from ginsim.table.agents import McAgent

    phases = []
    decide = McAgent.decide

    def spy(self, message):
        phases.append(message["phase"])
        return decide(self, message)

    monkeypatch.setattr(McAgent, "decide", spy)
    assert main(["agent", "--strategy", "mc:rollouts=4,particles=4", "--rules", "eaai",
                 "--warm"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mc:rollouts=4,particles=4 (rules eaai) is ready to serve")
    assert out.count("\n") == 1
    assert {"offer", "draw", "discard"} <= set(phases)


def test_warm_compiles_the_last_discard_without_waiting_for_one(monkeypatch) -> None:
    """Under the 50th-card rule warming plays one game and then asks the agent's
    last-discard decision once (a hand seldom reaches the floor), so the kernel is
    compiled whatever the seed; other rules play one game and ask nothing more."""
    from ginsim.game.rules import Rules
    from ginsim.table import agents
    from ginsim.table import referee as match

    games, asked = [], []
    play, ask = match.play_match, agents.Agent._last_discard_reply

    def counting(*args, **kwargs):
        games.append(args[4])
        return play(*args, **kwargs)

    def spy(self, params):
        asked.append(self.seat)
        return ask(self, params)

    monkeypatch.setattr(match, "play_match", counting)
    monkeypatch.setattr(agents.Agent, "_last_discard_reply", spy)
    monkeypatch.setattr(match, "last_discard_compiled", lambda: False)
    wall = match.warm_agent("simple", Rules.coerce("last_discard"), seed=2**64 - 1)
    assert games == [2**64 - 1] and asked and wall > 0
    assert agents.decide_last_discard_nb.signatures  # compiled (or loaded) in process
    games.clear()
    asked.clear()
    match.warm_agent("simple", "modern", seed=3)
    assert games == [3] and not asked


def test_agent_warm_refuses_an_agent_that_faults(monkeypatch, capsys) -> None:
    """An agent whose warming game faults (here an illegal answer) is not reported ready:
    one line naming the fault, exit 2. (A ginsim agent answers a move listed, so the
    illegal answer is put in place of its every reply.)"""
    from ginsim.cli import main
    from ginsim.table.agents import Agent

    handle = Agent.handle
    monkeypatch.setattr(Agent, "handle", lambda self, message: None if handle(
        self, message) is None else {"action": "big_gin"})
    assert main(["agent", "--strategy", "simple", "--warm"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: warming simple:") and "not legal" in err
    assert err.count("\n") == 1


START = {"type": "start", "protocol": 1, "rules": "eaai", "seat": 0, "game": 0}
HAND = {"type": "hand", "game": 0, "hand": 0, "seat": 0, "dealer": 1,
        "cards": "AS 2S 3S 7H 7D 7C 9C TC JC KD".split(), "upcard": "8C",
        "knock_limit": 10, "scores": [0, 0], "seed": None}


@pytest.mark.parametrize("messages,words", [
    ([START, {"type": "decide"}], "message 2 cannot be followed"),
    ([START, {"type": "hand"}], "message 2 cannot be followed"),
    ([START, HAND, {"type": "event", "action": "discard", "card": "KD"}],
     "message 3 cannot be followed"),
    ([START, HAND, {"type": "event", "seat": 1, "action": "bogus"}], "'bogus'"),
    ([START, HAND, {"type": "event", "seat": 7, "action": "discard", "card": "KD"}],
     "a seat is 0 or 1, got 7"),
    ([{**START, "seat": "x"}], "a seat is 0 or 1, got 'x'"),
    ([START, {**HAND, "seed": -1}], "message 2 cannot be followed"),
    ([START, {**HAND, "cards": ["ZZ"]}], "ZZ"),
    ([START, {**HAND, "dealer": 7}], "a dealer is 0 or 1, got 7"),
    ([START, {**HAND, "dealer": 2**63}], "a dealer is 0 or 1"),
    ([START, {**HAND, "hand": 2**63}], "hand must be a whole number"),
    ([START, {**HAND, "knock_limit": 2**63}], "knock_limit must be a whole number in 0..100"),
    ([START, {**HAND, "knock_limit": 2**70}],  # past the reader's bound: not even parsed
     "message 2: an integer of 22 digits (at most 20)"),
    ([START, {**HAND, "multiplier": 3}], "multiplier must be a whole number in 1..2"),
    ([START, HAND, {"type": "decide", "phase": "zzz", "legal": ["take", "pass"]}],
     "phase is one of offer, draw, discard, last_discard, got 'zzz'"),
])
def test_an_agent_told_what_it_cannot_follow_exits_2_with_one_line(
        messages: list[dict], words: str, monkeypatch, capsys) -> None:
    """A referee's malformed message (a field missing, an unknown action, a seat that is
    not 0 or 1) ends ``ginsim agent`` with one line naming the message, not a traceback."""
    from ginsim.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(m) + "\n"
                                                          for m in messages)))
    assert main(["agent", "--strategy", "simple", "--rules", "eaai"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("error: "), err


def test_an_output_file_is_checked_before_the_run(tmp_path: Path, monkeypatch) -> None:
    """``--csv`` takes a plain name in the working directory, a path, or ``~``; refuses
    an empty name, a directory and a file whose directory is missing or is a file."""
    from ginsim.reports._files import check_output_file

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert check_output_file("games.csv") == Path("games.csv")
    assert check_output_file("~/games.csv") == tmp_path / "games.csv"
    (tmp_path / "plain").write_text("x")
    for bad, words in (("", "is empty"), (".", "is a directory"),
                       ("plain/games.csv", "is not a directory"),
                       ("missing/games.csv", "does not exist")):
        with pytest.raises(ValueError, match=words):
            check_output_file(bad)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


#: Answers out of the protocol's bounds, each a forfeit naming what was wrong.
OUT_OF_BOUNDS = {
    "deep": ("print('[' * 5000 + ']' * 5000, flush=True); continue",
             "sent JSON nested 5,000 deep (at most 8)"),
    "digits": ("print('{\"action\": \"pass\", \"n\": ' + '7' * 5000 + '}', flush=True); continue",
               "sent an integer of 5,000 digits (at most 20)"),
    "endless": ("sys.stdout.write('x' * 300000); sys.stdout.flush(); time.sleep(30)",
                "sent a line of more than 100,000 bytes without its end"),
}


@pytest.mark.parametrize("fault", sorted(OUT_OF_BOUNDS))
def test_an_answer_out_of_bounds_is_a_forfeit(fault: str, tmp_path: Path) -> None:
    code, expected = OUT_OF_BOUNDS[fault]
    script = tmp_path / "faulty.py"
    script.write_text(first_legal_agent(2, code))
    lines: list[str] = []
    result = play_match("simple", f"exec:{sys.executable} {script}", 2, "eaai", seed=1,
                        timeout_ms=5000, on_fault=lines.append)
    assert len(lines) == 2 and all(expected in line and "\n" not in line for line in lines)
    assert all(len(line) < 400 for line in lines)
    assert [g["forfeit"] for g in result.games] == ["b", "b"]


def test_no_process_of_a_match_outlives_it(tmp_path: Path) -> None:
    """``ginsim match`` against a wrapper script that gets stuck once its agent has gone,
    around an agent that leaves a child behind and answers late in the second game:
    after the command, none of the processes either game started runs."""
    from test_agent_transport import alive, survivors, wrapped_agent

    (tmp_path / "late").mkdir()
    command, pids = wrapped_agent(tmp_path, late_at=0)
    late, late_pids = wrapped_agent(tmp_path / "late", late_at=3)
    try:
        done = run_cli("match", "--a", command, "--b", late, "--games", "2", "--rules",
                       "eaai", "--timeout-ms", "2000")
        assert done.returncode == 0, done.stderr
        assert done.stderr.count("answered late") == 2 and done.stderr.count("\n") == 2
        # a: one session for both games (wrapper, agent, its child, the stuck sleep);
        # b: a session per game (wrapper, agent, its child), each killed at its fault
        assert len(pids.read_text().split()) == 4 and len(late_pids.read_text().split()) == 6
        assert survivors(pids) == [] and survivors(late_pids) == []
    finally:
        for pid in (int(p) for f in (pids, late_pids) for p in f.read_text().split()):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_ginsim_agent_refuses_an_endless_line_without_holding_it() -> None:
    """A referee that never ends its line: ``ginsim agent`` exits 2 with one line once the
    bound has come in, while the input still flows (it is never read whole)."""
    proc = subprocess.Popen([sys.executable, "-m", "ginsim", "agent", "--strategy", "simple"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV, cwd=ROOT)
    sent = 0
    try:
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            proc.stdin.write(b'{"type":"start"}\n')
            while sent < 2**30:  # a gigabyte: far past the bound, never reached
                proc.stdin.write(b"x" * 65536)
                proc.stdin.flush()
                sent += 65536
        code = proc.wait(60)
    finally:
        proc.kill()
        proc.wait()
    err = proc.stderr.read().decode()
    assert code == 2 and sent < 2**24, (code, sent)
    assert err.startswith("error: message 2: a line of more than 100,000 bytes without its")
    assert err.count("\n") == 1, err


@pytest.mark.parametrize("line,words", [
    ("[" * 5000 + "]" * 5000, "message 2: JSON nested 5,000 deep (at most 8)"),
    ('{"type": "event", "seat": ' + "1" * 5000 + "}",
     "message 2: an integer of 5,000 digits (at most 20)"),
], ids=["deep", "digits"])
def test_ginsim_agent_refuses_a_line_out_of_bounds_in_one_line(line, words, monkeypatch,
                                                                capsys) -> None:
    from ginsim.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(START) + "\n" + line + "\n"))
    assert main(["agent", "--strategy", "simple", "--rules", "eaai"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {err[7:]}" and words in err and err.count("\n") == 1, err[:300]
