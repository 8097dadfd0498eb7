"""The result store: round trip, resume after a real SIGKILL, the lock against a
concurrent writer, and corrupt or foreign files reported by path with nothing touched."""

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ginsim
from ginsim.analysis.frames import records_frame
from ginsim.cli import main
from ginsim.runner.jobs import Job
from ginsim.runner.lock import StoreError, StoreLock, StoreLockedError
from ginsim.runner.runner import run
from ginsim.runner.store import StoreNotice
from ginsim.simulator.play.engine import play_records

ROOT = Path(__file__).resolve().parents[1]
HANDS, CHUNK = 24_000, 2_000
A, B, SEED = "simple", "simple:t=6", 7
JOB = Job.make(A, B, HANDS, SEED, "classic")


def python(code: str, *args: str, **kwargs) -> subprocess.Popen:
    """Start ``code`` in a fresh interpreter that imports this checkout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **kwargs)


@pytest.fixture(scope="module")
def uninterrupted():
    """Records and tables of the whole run in one go, without a store."""
    return run([JOB], records="full", n_jobs=1, chunk_hands=HANDS)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_round_trip_full_records(tmp_path, uninterrupted):
    hands = ginsim.simulate(A, B, HANDS, SEED, "classic", out=tmp_path / "s", n_jobs=2,
                            chunk_hands=CHUNK)
    loaded = ginsim.load(tmp_path / "s")
    pd.testing.assert_frame_equal(loaded.hands, hands)
    pd.testing.assert_frame_equal(loaded.hands, records_frame(uninterrupted.records[0]))
    manifest = loaded.manifest
    assert manifest["complete"] and manifest["ginsim_version"] == ginsim.__version__
    assert manifest["jobs"][0]["rules"] == ginsim.Rules.coerce("classic").to_dict()
    assert manifest["jobs"][0]["seed"] == SEED and manifest["chunk_hands"] == CHUNK
    assert len(manifest["chunks"]) == HANDS // CHUNK
    assert {c["status"] for c in manifest["chunks"]} == {"done"}
    assert not (tmp_path / "s" / ".lock").exists()
    assert loaded.summary["hands"].sum() == HANDS


def test_round_trip_summary_tables(tmp_path, uninterrupted):
    cells = ginsim.simulate(A, B, HANDS, SEED, "classic", records="summary",
                            out=tmp_path / "s", chunk_hands=CHUNK)
    loaded = ginsim.load(tmp_path / "s")
    pd.testing.assert_frame_equal(loaded.summary, cells)
    expected = ginsim.analysis.Result.from_run(uninterrupted)
    for name, table in expected.tables.items():
        pd.testing.assert_frame_equal(loaded.tables[name], table)
    with pytest.raises(ValueError, match="summary tables only"):
        loaded.hands  # noqa: B018


KILL_AFTER = """
    import os, signal, sys
    from ginsim.runner.jobs import Job
    from ginsim.runner.runner import run
    out, records, kill_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
    done = []
    def on_chunk(result):
        done.append(result.chunk)
        if len(done) == kill_after:
            os.kill(os.getpid(), signal.SIGKILL)
    run([Job.make("simple", "simple:t=6", 24_000, 7, "classic")], records=records,
        n_jobs=2, chunk_hands=2_000, out=out, on_chunk=on_chunk)
"""


@pytest.mark.parametrize("records", ["full", "summary"])
def test_resume_after_sigkill_equals_uninterrupted_run(tmp_path, uninterrupted, records):
    out = tmp_path / "s"
    proc = python(KILL_AFTER, str(out), records, "4")
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL, err
    stored = sorted((out / "chunks").glob("*.parquet"))
    assert 4 <= len(stored) < HANDS // CHUNK  # killed mid-run
    assert (out / ".lock").exists()  # left behind by the killed writer
    with pytest.raises(ValueError, match="unfinished"):
        ginsim.load(out)
    recorded = {c["file"].split("/")[-1] for c in
                json.loads((out / "manifest.json").read_text())["chunks"]}
    assert recorded <= {p.name for p in stored} and recorded
    before = {p.name: p.stat().st_mtime_ns for p in stored if p.name in recorded}

    with warnings.catch_warnings():  # a notice when some chunk is played again (below)
        warnings.simplefilter("ignore", StoreNotice)
        resumed = run([JOB], records=records, n_jobs=2, out=out)  # size from the manifest
    assert resumed.chunks_resumed == len(recorded)
    assert resumed.hands_played == HANDS - len(recorded) * CHUNK
    # A file renamed into place but not yet recorded is played again, and said so.
    assert bool(resumed.notes) == (len(recorded) < len(stored))
    assert {p.name: p.stat().st_mtime_ns for p in stored if p.name in recorded} == before
    assert np.array_equal(resumed.tables[0], uninterrupted.tables[0])
    loaded = ginsim.load(out)
    assert loaded.manifest["complete"]
    expected = ginsim.analysis.Result.from_run(uninterrupted)
    pd.testing.assert_frame_equal(loaded.summary, expected.summary)
    if records == "full":
        assert np.array_equal(resumed.records[0], uninterrupted.records[0])
        pd.testing.assert_frame_equal(loaded.hands, expected.hands)


def test_resume_with_the_cli_finishes_only_missing_chunks(tmp_path, capsys):
    out = tmp_path / "s"
    argv = ["simulate", "--a", A, "--b", B, "--hands", "12000", "--seed", "3",
            "--chunk-hands", "3000", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    full = capsys.readouterr().out
    (out / "chunks" / "j000-c000002.parquet").unlink()  # as if killed before that chunk
    (out / "chunks" / ".j000-c000003.parquet.99999.tmp").write_bytes(b"half a file")
    assert main(argv[:-3] + ["--out", str(out)]) == 0
    again = capsys.readouterr().out
    assert "played 3,000 hands" in again and "resumed: 9,000 hands (3 chunks)" in again
    assert not (out / "chunks" / ".j000-c000003.parquet.99999.tmp").exists()
    tail = lambda text: text[text.index("outcome shares"):]  # noqa: E731
    assert tail(again) == tail(full)


LOCK_HOLDER = """
    import sys, time
    from ginsim.runner.jobs import Job
    from ginsim.runner.store import Store
    job = Job.make("simple", "simple:t=6", 24_000, 7, "classic")
    store = Store.open_writer(sys.argv[1], [job], "full", 2_000, 2_000)
    print("writing", flush=True)
    time.sleep(120)
"""


def test_a_second_writer_is_refused_and_nothing_is_touched(tmp_path, capsys):
    out = tmp_path / "s"
    holder = python(LOCK_HOLDER, str(out))
    try:
        assert holder.stdout.readline().strip() == "writing"
        before = snapshot(out)
        code = main(["simulate", "--a", A, "--b", B, "--hands", str(HANDS), "--seed",
                     str(SEED), "--rules", "classic", "--chunk-hands", "2000", "--out",
                     str(out)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
        assert f"being written by process {holder.pid}" in err and str(out) in err
        assert snapshot(out) == before
        with pytest.raises(StoreLockedError):
            run([JOB], records="full", out=out, chunk_hands=CHUNK)
    finally:
        holder.kill()
        holder.communicate()
    # The holder is gone: its lock is stale and the next writer takes over.
    result = run([JOB], records="summary", out=tmp_path / "other", chunk_hands=CHUNK)
    assert result.hands_played == HANDS
    resumed = run([JOB], records="full", out=out, chunk_hands=CHUNK, n_jobs=1)
    assert resumed.hands_played == HANDS and not (out / ".lock").exists()


def test_lock_of_a_live_process_on_another_host_is_refused(tmp_path):
    lock = tmp_path / ".lock"
    lock.write_text(json.dumps({"host": "elsewhere.example", "pid": 1, "since": 0}))
    with pytest.raises(StoreLockedError, match="on host elsewhere.example"):
        StoreLock(lock).acquire()
    assert json.loads(lock.read_text())["host"] == "elsewhere.example"


@pytest.fixture
def finished_store(tmp_path):
    out = tmp_path / "s"
    run([JOB], records="full", n_jobs=2, chunk_hands=CHUNK, out=out)
    return out


@pytest.mark.parametrize("damage,message", [
    ("truncate", "is not a readable Parquet file"),
    ("foreign_parquet", "does not belong to this store"),
    ("stray_file", "is not a chunk of this store"),
])
def test_corrupt_or_foreign_file_is_reported_by_path(finished_store, tmp_path, damage,
                                                     message, capsys):
    target = finished_store / "chunks" / "j000-c000005.parquet"
    if damage == "truncate":
        target.write_bytes(target.read_bytes()[:1000])
    elif damage == "foreign_parquet":
        other = tmp_path / "other"
        run([Job.make(A, B, HANDS, SEED + 1, "classic")], records="full", chunk_hands=CHUNK,
            out=other)
        target.write_bytes((other / "chunks" / target.name).read_bytes())
    else:
        target = finished_store / "chunks" / "notes.txt"
        target.write_text("my notes")
    before = snapshot(finished_store)
    with pytest.raises(StoreError, match=message) as info:
        ginsim.load(finished_store)
    assert str(target) in str(info.value)
    code = main(["simulate", "--a", A, "--b", B, "--hands", str(HANDS), "--seed", str(SEED),
                 "--rules", "classic", "--out", str(finished_store)])
    err = capsys.readouterr().err
    assert code == 2 and str(target) in err and message in err and err.count("\n") == 1
    assert snapshot(finished_store) == before  # the store, the damaged file included
    assert not (finished_store / ".lock").exists()


def test_a_different_run_or_a_foreign_directory_is_refused(finished_store, tmp_path, capsys):
    before = snapshot(finished_store)
    with pytest.raises(StoreError, match="job 0 has seed 7, not 8"):
        run([Job.make(A, B, HANDS, SEED + 1, "classic")], records="full",
            out=finished_store)
    with pytest.raises(StoreError, match="chunks of 2000 hands, not 3000"):
        run([JOB], records="full", out=finished_store, chunk_hands=3000)
    with pytest.raises(StoreError, match="holds --records full, not summary"):
        run([JOB], records="summary", out=finished_store)
    assert snapshot(finished_store) == before
    (finished_store / "manifest.json").write_text("{not json")
    with pytest.raises(StoreError, match="manifest.json is not a readable ginsim manifest"):
        ginsim.load(finished_store)
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "cat.jpg").write_bytes(b"\xff\xd8")
    assert main(["simulate", "--hands", "100", "--out", str(mine)]) == 2
    assert "is not a ginsim store" in capsys.readouterr().err
    assert [p.name for p in mine.iterdir()] == ["cat.jpg"]
    with pytest.raises(StoreError, match="no manifest.json"):
        ginsim.load(mine)


def test_partial_load_and_duplicate_pairs_in_a_store(tmp_path):
    out = tmp_path / "s"
    job = Job.make("simple", "simple", 8_000, 2, duplicate=True)
    run([job], records="full", chunk_hands=1_000, out=out, n_jobs=2)
    (out / "chunks" / "j000-c000003.parquet").unlink()
    part = ginsim.load(out, partial=True).hands
    assert len(part) == 7_000 and not part["hand"].between(3_000, 3_999).any()
    whole, _ = play_records("simple", "simple", stop=8_000, seed=2, duplicate=True)
    expected = records_frame(whole[np.r_[0:3000, 4000:8000]]).reset_index(drop=True)
    pd.testing.assert_frame_equal(part, expected)
    pairs = part.set_index("hand")
    assert (pairs.loc[0::2, "upcard"].to_numpy() == pairs.loc[1::2, "upcard"].to_numpy()).all()


def test_killed_before_the_manifest_was_written_starts_over(tmp_path):
    out = tmp_path / "s"
    (out / "chunks").mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    (out / ".lock").write_text(json.dumps({"host": socket.gethostname(),
                                           "pid": int(dead.stdout), "since": 0}))
    result = run([Job.make(A, B, 4_000, 1)], records="summary", chunk_hands=1_000, out=out)
    assert result.hands_played == 4_000 and ginsim.load(out).manifest["complete"]


def test_a_line_break_in_the_store_path_keeps_the_error_on_one_line(tmp_path: Path) -> None:
    from ginsim.runner.store import Store
    odd = tmp_path / "results\nold"
    odd.mkdir()
    with pytest.raises(StoreError, match="not a ginsim store") as info:
        Store.open_reader(odd)
    assert "\n" not in str(info.value) and "results\\nold" in str(info.value)
