"""Cold kernel groups compile in worker processes (issue 44, item 3): independent groups at
once, each written to numba's cache and loaded from it here; a group a worker cannot
compile is compiled here, said so; the advisor of ``ginsim play --hint`` compiles in the
background. The toy kernels live in a module written for each test, so they are cold."""

from __future__ import annotations

import importlib
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from ginsim.game.rules import Rules
from ginsim.runner.kernels.compile_workers import group_from_recipe
from ginsim.runner.kernels.compiling import (
    JOBS_SETTING,
    BackgroundCompile,
    KernelGroup,
    compile_groups,
    compile_jobs,
    is_compiled,
    worker_batches,
)
from ginsim.runner.kernels.waiting import LINE_EVERY_S, Ticker

ROOT = Path(__file__).resolve().parents[1]

TOY = '''
import multiprocessing
import time

import numba

from ginsim.runner.kernels.compiling import KernelGroup


@numba.njit(cache=True)
def one(x):
    return x + 1


@numba.njit(cache=True)
def two(x):
    return x * 2


@numba.njit(cache=True)
def three(x):
    return x - 1


@numba.njit(cache=True)
def four(x):
    return x - 2


def _slow(kernel):
    def compile(rules):
        time.sleep(4.5)
        kernel(1)
    return compile


def _two_here_only(rules):
    if multiprocessing.parent_process() is not None:
        raise RuntimeError("no compiling in a worker")
    two(3)


def _group(name, kernel, compile):
    return KernelGroup(name, (kernel,), compile, recipe=(__name__ + ":GROUPS", (name,)))


GROUPS = {group.name: group for group in (
    _group("one", one, lambda rules: one(1)),
    _group("two", two, lambda rules: two(1)),
    _group("two, here only", two, _two_here_only),
    _group("slow", three, _slow(three)),
    _group("slow too", four, _slow(four)),
)}
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A fresh module of cold kernels, importable here and in spawned workers."""
    name = f"toy_kernels_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(TOY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(JOBS_SETTING, "2")
    yield importlib.import_module(name)
    sys.modules.pop(name, None)


def test_independent_groups_compile_in_workers_and_load_from_the_cache(toy, capsys) -> None:
    assert compile_groups([toy.GROUPS["one"], toy.GROUPS["two"]]) > 0
    err = capsys.readouterr().err
    assert err.startswith("compiling kernels (first run only): one, two (2 at a time, in "
                          "worker processes)\n")
    assert "\n  one: " in err and "\n  two: " in err and "compiling it" not in err
    assert not toy.one.overloads and not toy.two.overloads  # nothing compiled here
    assert is_compiled(toy.one) and is_compiled(toy.two)  # the workers' cache entries
    assert toy.one(1) == 2 and sum(toy.one.stats.cache_hits.values()) == 1
    assert compile_groups([toy.GROUPS["one"], toy.GROUPS["two"]]) == 0.0
    assert capsys.readouterr().err == ""


def test_a_group_a_worker_cannot_compile_is_compiled_here(toy, capsys) -> None:
    assert compile_groups([toy.GROUPS["one"], toy.GROUPS["two, here only"]]) > 0
    err = capsys.readouterr().err
    assert ("two, here only: its worker failed (RuntimeError: no compiling in a worker); "
            "compiling it in this process") in err
    assert not toy.one.overloads and is_compiled(toy.one)
    assert len(toy.two.overloads) == 1  # compiled in this process


def test_one_process_compiles_here(toy, capsys, monkeypatch) -> None:
    monkeypatch.setenv(JOBS_SETTING, "1")
    compile_groups([toy.GROUPS["one"], toy.GROUPS["two"]])
    assert "worker" not in capsys.readouterr().err
    assert len(toy.one.overloads) == 1 and len(toy.two.overloads) == 1


def test_the_background_compiles_while_the_caller_goes_on(toy, capsys) -> None:
    background = BackgroundCompile([toy.GROUPS["one"]], purpose="hint")
    assert capsys.readouterr().err == ("compiling kernels in the background (first run "
                                       "only): one; the first hint waits for them\n")
    try:
        background.wait()
    finally:
        background.close()
    assert not toy.one.overloads and is_compiled(toy.one)
    assert background.wait() == 0.0  # once ready, at once
    assert "compiling kernels (first run only)" not in capsys.readouterr().err


def test_without_workers_the_first_wait_compiles_here_and_says_so(toy, capsys,
                                                                  monkeypatch) -> None:
    monkeypatch.setenv(JOBS_SETTING, "1")
    background = BackgroundCompile([toy.GROUPS["one"]], purpose="hint")
    assert capsys.readouterr().err == ""
    background.wait()
    assert capsys.readouterr().err.startswith("compiling kernels (first run only): one\n")
    assert len(toy.one.overloads) == 1


def test_workers_follow_the_idle_cores(monkeypatch) -> None:
    """Unset, one worker per core less the cores found busy (rounded), at least one."""
    import os

    from ginsim.runner.kernels import compiling

    monkeypatch.delenv(JOBS_SETTING, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    for busy, workers in ((0.0, 4), (0.4, 4), (0.6, 3), (1.2, 3), (3.6, 1), (9.0, 1)):
        monkeypatch.setattr(compiling, "busy_cores", lambda busy=busy: busy)
        assert compile_jobs() == workers, busy


def test_busy_cores_are_measured_now_not_averaged(tmp_path, monkeypatch) -> None:
    """Two samples of the machine's CPU counters a moment apart: the busy share of the
    ticks between them times the cores; where there are no counters, the load average."""
    import os

    from ginsim.runner.kernels import compiling

    # user nice system idle iowait irq softirq steal guest guest_nice
    samples = iter(["cpu  100 0 50 800 50 0 0 0 30 0\n", "cpu  400 0 150 1100 150 0 0 0 90 0\n"])
    stat = tmp_path / "stat"

    def fake_sleep(seconds: float) -> None:
        stat.write_text(next(samples) + "cpu0 1 2 3 4\n")

    fake_sleep(0)
    monkeypatch.setattr(compiling, "PROC_STAT", stat)
    monkeypatch.setattr(compiling.time, "sleep", fake_sleep)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    # 800 ticks passed (guest time is inside user), 400 of them idle or waiting on I/O
    assert compiling.busy_cores() == pytest.approx(1.0)
    assert compiling.busy_share((10, 100), (10, 100)) == 0.0
    assert compiling.busy_share((10, 100), (110, 200)) == 0.0
    assert compiling.busy_share((10, 100), (10, 200)) == 1.0

    monkeypatch.setattr(compiling, "PROC_STAT", tmp_path / "missing")
    monkeypatch.setattr(os, "getloadavg", lambda: (1.7, 0.0, 0.0))
    assert compiling.busy_cores() == 1.7


@pytest.mark.parametrize("text", ["0", "two", "-1", "\u00b2", "x", "1.5", "1e3", "0x2",
                                  "99999999999", "+2"])
def test_a_bad_process_count_is_one_line(text, monkeypatch) -> None:
    monkeypatch.setenv(JOBS_SETTING, text)
    with pytest.raises(ValueError, match=f"{JOBS_SETTING} must be a whole number in "
                                         "1..1024") as info:
        compile_jobs()
    assert "\n" not in str(info.value) and "1 compiles in this process" in str(info.value)


@pytest.mark.parametrize("text", ["x", "\u00b2", "0"])
def test_a_bad_process_count_is_refused_however_many_groups_are_cold(toy, text,
                                                                    monkeypatch) -> None:
    """One group cold (no workers to plan), two, or none: the same refusal, before
    anything compiles."""
    monkeypatch.setenv(JOBS_SETTING, text)
    for groups in ([toy.GROUPS["one"]], [toy.GROUPS["one"], toy.GROUPS["two"]], []):
        with pytest.raises(ValueError, match=f"^{JOBS_SETTING} must be a whole number"):
            compile_groups(groups)
        with pytest.raises(ValueError, match=f"^{JOBS_SETTING} must be a whole number"):
            BackgroundCompile(groups)
    assert not toy.one.overloads and not is_compiled(toy.one)


def test_a_good_process_count_is_read_as_written(monkeypatch) -> None:
    for text, jobs in ((" 3 ", 3), ("1", 1), ("1024", 1024), ("007", 7)):
        monkeypatch.setenv(JOBS_SETTING, text)
        assert compile_jobs() == jobs


ADVISE = ["advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--drawn", "QC", "--history",
          "dealer:op up:3H me:pass op:pass me:stock", "--rollouts", "20"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_command_ended_while_workers_compile_leaves_no_process(tmp_path, signum) -> None:
    """``ginsim advise --history`` on a fresh cache compiles its two groups in two
    workers; the command signalled once they run: SIGTERM and SIGHUP exit 143 and 129
    with one line, kill -9 exits at once, and in each case no worker (nor the resource
    tracker) is left compiling."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path),
           JOBS_SETTING: "2"}
    command = subprocess.Popen([sys.executable, "-m", "ginsim", *ADVISE], env=env, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        parent = psutil.Process(command.pid)
        deadline = time.monotonic() + 300
        while len(workers := [p for p in parent.children() if "spawn_main" in
                              " ".join(p.cmdline())]) < 2:
            assert command.poll() is None and time.monotonic() < deadline, command.poll()
            time.sleep(0.2)
        time.sleep(1.0)  # into their imports or their compiling
        descendants = parent.children(recursive=True)
        assert len(workers) == 2 and all(p.is_running() for p in workers)
        os.kill(command.pid, signum)
        _, err = command.communicate(timeout=120)
    finally:
        if command.poll() is None:
            command.kill()
    _, left = psutil.wait_procs(descendants, timeout=15)
    assert not left, [p.cmdline()[-1][:80] for p in left]
    if signum == signal.SIGKILL:
        assert command.returncode == -signal.SIGKILL
        return
    assert command.returncode == 128 + signum, err
    lines = err.strip().splitlines()
    assert lines[0].startswith("compiling kernels (first run only): advisor beliefs"), err
    assert lines[-1] == (f"ginsim: ended by {signal.Signals(signum).name}; its kernel "
                         "compiling workers stopped with it"), err
    assert "Traceback" not in err


def _group(name: str, kernels: tuple, needs: tuple[str, ...] = ()) -> KernelGroup:
    return KernelGroup(name, kernels, lambda rules: None, needs=needs)


def test_groups_sharing_a_kernel_or_needing_one_another_share_a_batch() -> None:
    k1, k2, k3, k4, k5 = (object() for _ in range(5))
    groups = [_group("a", (k1,)), _group("b", (k2,)), _group("c", (k3,), needs=("d",)),
              _group("e", (k2, k4)), _group("d", (k5,)), _group("h", (object(),))]
    assert [[g.name for g in batch] for batch in worker_batches(groups)] == [
        ["a"], ["b", "e"], ["d", "c"], ["h"]]


def test_the_real_groups_rebuild_from_their_recipes() -> None:
    """What a spawned worker gets: plain values that pickle, rebuilding the same group
    (Mahjong gin's from its rules' spec, a bot's table group from bot and seed)."""
    from ginsim.rami.play.runner import RAMI_KERNEL_GROUPS
    from ginsim.runner.kernels.warmup import (
        KERNEL_GROUPS,
        MAHJONG,
        STUDY_KERNELS,
        for_rules,
        table_group,
    )

    for group in [*KERNEL_GROUPS.values(), *RAMI_KERNEL_GROUPS.values()]:
        assert group_from_recipe(pickle.loads(pickle.dumps(group.recipe))) is group
    mahjong = for_rules(KERNEL_GROUPS["hand loop"], MAHJONG)
    rebuilt = group_from_recipe(pickle.loads(pickle.dumps(mahjong.recipe)))
    assert rebuilt.name == mahjong.name == "hand loop (Mahjong gin)"
    assert rebuilt.kernels == mahjong.kernels and rebuilt.recipe == mahjong.recipe
    bot = group_from_recipe(table_group("mc", 7).recipe)
    assert bot.name == "mc at the table" and bot.kernels == table_group("mc", 7).kernels
    assert pickle.loads(pickle.dumps(MAHJONG)) == MAHJONG
    knock = [for_rules(KERNEL_GROUPS[n], Rules()) for n in STUDY_KERNELS["knock"]]
    assert [[g.name for g in b] for b in worker_batches(knock)] == [
        ["hand loop", "aggregate tables"], ["knock chart"]]
    under_mahjong = [for_rules(KERNEL_GROUPS[n], MAHJONG) for n in ("aggregate tables",
                                                                    "hand loop")]
    assert [[g.name for g in b] for b in worker_batches(under_mahjong)] == [
        ["hand loop (Mahjong gin)", "aggregate tables"]]


def _status_lines(err: str, what: str) -> list[int]:
    """The seconds each status line of ``what`` reports ("WHAT: 4 s so far")."""
    import re

    return [int(m) for m in re.findall(rf"{re.escape(what)}: (\d+) s so far\n", err)]


def test_a_ticker_says_what_it_waits_for_and_for_how_long() -> None:
    """A line each LINE_EVERY_S (2) seconds off a terminal, stamped as written; the
    elapsed time it states is the clock's."""
    import io
    import time

    class Stamped(io.StringIO):
        def __init__(self) -> None:
            super().__init__()
            self.stamps: list[float] = []

        def write(self, text: str) -> int:
            self.stamps.append(time.monotonic())
            return super().write(text)

    stream = Stamped()
    start = time.monotonic()
    with Ticker("compiling slow", stream=stream):
        time.sleep(5.2)
    assert LINE_EVERY_S == 2.0
    assert _status_lines(stream.getvalue(), "compiling slow")[:2] == [2, 4]
    gaps = [b - a for a, b in zip([start, *stream.stamps], stream.stamps, strict=False)]
    assert len(gaps) == 2 and max(gaps) < LINE_EVERY_S + 1.0, gaps  # load may delay it
    # what it states is the clock's elapsed time
    now = iter([100.0, 107.4])
    fake = Ticker(lambda: "waiting", stream=io.StringIO(), clock=lambda: next(now))
    fake.show()
    assert fake.stream.getvalue() == "waiting: 7 s so far\n"


def test_a_slow_compile_here_and_in_the_background_shows_its_progress(toy, capsys,
                                                                    monkeypatch) -> None:
    """Over 2 s, the wait for a group compiling here, or in the background, says which
    and how long every 2 s (stderr is no terminal here: a line each time)."""
    monkeypatch.setenv(JOBS_SETTING, "1")
    compile_groups([toy.GROUPS["slow"]])
    seconds = _status_lines(capsys.readouterr().err, "  compiling slow")
    assert seconds[:2] == [2, 4], seconds
    monkeypatch.setenv(JOBS_SETTING, "2")
    background = BackgroundCompile([toy.GROUPS["slow too"]], purpose="move of the bot")
    try:
        background.wait(["slow too"], "bot's first move")
    finally:
        background.close()
    err = capsys.readouterr().err
    assert "the bot's first move (first run only)" in err and is_compiled(toy.four)
    assert not toy.four.overloads  # compiled in the worker
    seconds = _status_lines(err, "  compiling slow too in the background")
    assert seconds and seconds[0] == 2, err
