"""Runs end cleanly and stay bounded: a full disk and Ctrl-C end in one line (no joblib
warning besides it) with the store resumable to the very tables of an uninterrupted run;
a resume whose chart file was edited is refused naming it; summary chunks of any size are
played a slice at a time with identical tables; planning is lazy and a store bounded."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
import textwrap
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest

from ginsim.cli import main
from ginsim.runner import aggregate, chunkfile, store_files
from ginsim.runner import runner as runner_module
from ginsim.runner.aggregate import layout
from ginsim.runner.jobs import Job, plan_chunks
from ginsim.runner.lock import StoreError
from ginsim.runner.runner import run
from ginsim.runner.store import MANIFEST, Store, StoreNotice
from ginsim.simulator.play.engine import play_records
from ginsim.strategies.charts.knock_charts import SHAPE, KnockChart

ROOT = Path(__file__).resolve().parents[1]
A, B, SEED, RULES, HANDS, CHUNK = "simple", "simple:t=6", 3, "classic", 8_000, 1_000
JOB = Job.make(A, B, HANDS, SEED, RULES)
CLI = ["simulate", "--a", A, "--b", B, "--hands", str(HANDS), "--seed", str(SEED), "--rules",
       RULES, "--records", "summary", "--chunk-hands", str(CHUNK), "--n-jobs", "2"]


@pytest.fixture(scope="module")
def reference():
    """The tables of the whole run in one go, without a store."""
    return run([JOB], records="summary", n_jobs=1).tables[0]


def stored_tables(root: Path) -> np.ndarray:
    """The tables a (complete) store holds, read back chunk by chunk."""
    store = Store.open_reader(root)
    assert len(store.done) == len(store.chunks)
    acc = layout(JOB.rules).empty()
    for chunk in store.done:
        aggregate.add_sparse(acc, store.read_sparse(chunk))
    return acc


def joblib_warnings(caught) -> list:
    return [w for w in caught if "joblib" in str(w.filename) or "joblib" in str(w.message)]


@pytest.mark.parametrize("where", ["chunk", "manifest"])
def test_a_full_disk_is_one_line_and_the_store_resumes(tmp_path, monkeypatch, capsys,
                                                      reference, where):
    out = tmp_path / "s"
    calls = [0]
    if where == "chunk":
        real = chunkfile.pq.write_table

        def write_table(*args, **kwargs):
            calls[0] += 1
            if calls[0] > 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real(*args, **kwargs)
        monkeypatch.setattr(chunkfile.pq, "write_table", write_table)
    else:
        def full_open(path, *args, **kwargs):  # the manifest's temporary file
            calls[0] += 1
            if calls[0] > 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            return open(path, *args, **kwargs)
        monkeypatch.setattr(store_files, "open", full_open, raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main([*CLI, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "No space left on device" in err and str(out) in err and "resume" in err
    assert not joblib_warnings(caught)
    assert not (out / ".lock").exists()
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StoreNotice)  # chunks stored, not recorded: replayed
        assert main([*CLI, "--out", str(out)]) == 0
    capsys.readouterr()
    np.testing.assert_array_equal(stored_tables(out), reference)


def test_ctrl_c_is_one_line_and_the_store_resumes(tmp_path, capsys, reference):
    """A real SIGINT in the middle of a two-thread run, with chunks in flight (slowed
    down here, so joblib would warn that it cancelled them): one line saying what is
    stored, exit 130, then the same command finishes the run."""
    out = tmp_path / "s"
    code = textwrap.dedent("""
        import os, signal, sys, time
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from ginsim.cli import main
        from ginsim.runner import runner, store
        real_write, real_play = store.Store.write, runner.play_chunk
        def write(self, *args):
            real_write(self, *args)
            if len(self.done) == 3:
                os.kill(os.getpid(), signal.SIGINT)
        def play(*args, **kwargs):
            time.sleep(0.3)
            return real_play(*args, **kwargs)
        store.Store.write, runner.play_chunk = write, play
        sys.exit(main(sys.argv[1:]))
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="always")
    proc = subprocess.run([sys.executable, "-c", code, *CLI, "--out", str(out)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert re.fullmatch(rf"interrupted: \d of 8 chunks are stored in {re.escape(str(out))}; "
                        rf"run the same command again to resume\n", proc.stderr), proc.stderr
    assert not (out / ".lock").exists()
    assert json.loads((out / MANIFEST).read_text())["chunks"]
    assert main([*CLI, "--out", str(out)]) == 0
    capsys.readouterr()
    np.testing.assert_array_equal(stored_tables(out), reference)


def test_resuming_after_a_chart_file_changed_is_refused_naming_it(tmp_path):
    path = tmp_path / "chart.json"
    p = np.zeros(SHAPE)
    p[:, :6, :] = 1
    KnockChart(p, "mine").save(path)
    spec = f"memory2:chart={path}"

    class Stop(Exception):
        pass

    def stop(_):
        raise Stop

    out = tmp_path / "s"
    job = Job.make(spec, A, 4_000, SEED, RULES)
    with pytest.raises(Stop):
        run([job], records="summary", n_jobs=1, chunk_hands=CHUNK, out=out, on_chunk=stop)
    manifest = json.loads((out / MANIFEST).read_text())
    assert list(manifest["inputs"]) == [f"chart={path}"]
    original = path.read_bytes()
    p[3, 6, 0] = 0.5
    KnockChart(p, "mine").save(path)
    before = {q.name: q.read_bytes() for q in sorted(out.rglob("*")) if q.is_file()}
    with pytest.raises(StoreError) as err:
        run([Job.make(spec, A, 4_000, SEED, RULES)], records="summary", n_jobs=1, out=out)
    text = str(err.value)
    assert f"its input chart={path} has changed" in text and "\n" not in text, text
    assert {q.name: q.read_bytes() for q in sorted(out.rglob("*")) if q.is_file()} == before
    path.write_bytes(original)
    resumed = run([job], records="summary", n_jobs=1, out=out)
    assert resumed.chunks_resumed == 1
    whole = run([job], records="summary", n_jobs=1)
    np.testing.assert_array_equal(resumed.tables[0], whole.tables[0])


def test_summary_chunks_are_played_a_slice_at_a_time_with_identical_tables(monkeypatch):
    records, _ = play_records(A, B, stop=5_000, seed=SEED, rules=RULES)
    lay = layout(JOB.rules)
    want = lay.empty()
    aggregate.add_sparse(want, lay.sparse(records))
    monkeypatch.setattr(aggregate, "SLICE_HANDS", 700)
    monkeypatch.setattr(runner_module, "SLICE_HANDS", 700)
    job = Job.make(A, B, 5_000, SEED, RULES)
    sizes = []
    real = runner_module.play_records
    monkeypatch.setattr(runner_module, "play_records",
                        lambda *a, **k: sizes.append(k["stop"] - k["start"]) or real(*a, **k))
    got = run([job], records="summary", n_jobs=1, chunk_hands=2_500).tables[0]
    np.testing.assert_array_equal(got, want)
    assert max(sizes) == 700 and sum(sizes) == 5_000


def test_an_interrupted_slice_leaves_no_counts_behind():
    records, _ = play_records(A, B, stop=2_000, seed=SEED, rules=RULES)
    lay = layout(JOB.rules)
    want = lay.sparse(records)

    def batches():
        yield records[:1_000]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        lay.sparse_of(batches())
    got = lay.sparse(records)
    np.testing.assert_array_equal(got.index, want.index)
    np.testing.assert_array_equal(got.acc, want.acc)


def test_planning_is_lazy_and_a_store_holds_a_bounded_number_of_chunks(tmp_path):
    jobs = [Job.make(A, A, 10**12, seed=s) for s in range(11)]
    tracemalloc.start()
    plan = plan_chunks(jobs, 10**7)
    assert len(plan) == 1_100_000 and plan.chunk(10, 99_999).stop == 10**12
    assert sum(1 for _ in zip(range(1000), plan, strict=False)) == 1000
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2**20, peak
    out = tmp_path / "s"
    with pytest.raises(StoreError, match="1,100,000 chunks, at most 1,000,000"):
        run(jobs, records="summary", n_jobs=1, chunk_hands=10**7, out=out)
    assert not (out / MANIFEST).exists() and not (out / ".lock").exists()


@pytest.mark.parametrize("kwargs, words", [
    ({"stop": 10**12}, "at most 20,000,000 hands"),
    ({"stop": 10, "trace_rows": 10**12}, "trace_rows must be a whole number"),
    ({"stop": 10, "trace_rows": True}, "trace_rows must be a whole number"),
])
def test_play_records_checks_its_counts_before_allocating(kwargs, words):
    tracemalloc.start()
    with pytest.raises(ValueError, match=words):
        play_records(A, B, **kwargs)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2**24, peak
