"""The Rami deal store reads its manifest as data from strangers and has one writer at a
time, through the gin store's own reader and lock: a FIFO or an oversized manifest is
refused without waiting or reading it whole, a manifest of the wrong shape is refused
in one line, and a second writer is refused while the first holds the lock."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

from ginsim.rami.play.store import LOCK, MANIFEST, load_deals, save_deals
from ginsim.runner.lock import StoreError, StoreLockedError

SEATS = ["simple", "simple"]


@pytest.fixture()
def store(tmp_path):
    out = tmp_path / "r"
    save_deals(out, SEATS, 20, seed=2, chunk=10)
    return out


def test_a_fifo_manifest_is_refused_without_waiting(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    os.mkfifo(out / MANIFEST)
    with pytest.raises(StoreError, match="not a regular file"):
        load_deals(out)


@pytest.mark.parametrize("edit, words", [
    (lambda m: m["chunks"]["c000000"].pop("sha256"), "chunk 'c000000' must be"),
    (lambda m: m["definition"].__setitem__("deals", True), "definition.deals must be"),
    (lambda m: m.__setitem__("extra", 1), "its keys must be"),
])
def test_a_manifest_of_the_wrong_shape_is_refused_in_one_line(store, edit, words):
    path = store / MANIFEST
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps(manifest))
    with pytest.raises(StoreError, match=words) as info:
        load_deals(store)
    assert "\n" not in str(info.value)
    with pytest.raises(StoreError, match=words):
        save_deals(store, SEATS, 20, seed=2, chunk=10)


def test_deeply_nested_manifest_is_refused_before_parsing(store):
    (store / MANIFEST).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StoreError, match="nests 100,000 levels deep"):
        load_deals(store)


def test_a_second_writer_is_refused_while_the_lock_is_held(store):
    (store / LOCK).write_text(json.dumps({"host": socket.gethostname(), "pid": os.getppid(),
                                          "since": 0.0}))
    with pytest.raises(StoreLockedError):
        save_deals(store, SEATS, 20, seed=2, chunk=10)
    (store / LOCK).unlink()
    save_deals(store, SEATS, 20, seed=2, chunk=10)  # resumes, then releases the lock
    assert not (store / LOCK).exists() and len(load_deals(store)) == 20 * len(SEATS)


def test_the_top_seed_is_stored_and_read_back(tmp_path):
    out = tmp_path / "top"
    manifest = save_deals(out, SEATS, 20, seed=2**64 - 1, chunk=10)
    assert manifest["definition"]["seed"] == 2**64 - 1
    assert len(load_deals(out)) == 20 * len(SEATS)
    save_deals(out, SEATS, 20, seed=2**64 - 1, chunk=10)  # the same run: resumed
    with pytest.raises(StoreError, match="its seed differ"):
        save_deals(out, SEATS, 20, seed=2**63 - 1, chunk=10)


def test_a_read_chunk_frees_no_python_memory_on_arrow_threads(store, monkeypatch):
    """The cause of the abort at exit (issue 43): Arrow's I/O threads dropped the last
    reference to a buffer over Python bytes after ``read_table`` returned, which takes
    the GIL on that thread; at interpreter exit that thread ends inside a destructor
    (``terminate called without an active exception``). Chunks are read from Arrow's
    own memory, so whatever a chunk's bytes were is freed on this thread, every time."""
    import threading
    import weakref

    import numpy as np

    from ginsim.runner import chunkfile

    main, freed = threading.get_ident(), []
    read = chunkfile.read_bounded

    def traced(path, max_bytes, what):  # the file's bytes as an object weakref can follow
        data = np.frombuffer(read(path, max_bytes, what), dtype=np.uint8).copy()
        weakref.finalize(data, lambda: freed.append(threading.get_ident() == main))
        return data

    monkeypatch.setattr(chunkfile, "read_bounded", traced)
    for _ in range(150):
        load_deals(store)
    deadline = time.monotonic() + 5
    while len(freed) < 300 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(freed) == 300 and all(freed), freed.count(False)


def dead_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def same_store(a, b) -> None:
    """Two stores hold the same run: the same records and the same chunk checksums."""
    assert np.array_equal(load_deals(a), load_deals(b))
    assert json.loads((a / MANIFEST).read_text()) == json.loads((b / MANIFEST).read_text())


def test_a_folder_left_by_a_writer_killed_before_its_manifest_resumes(tmp_path):
    """What a writer killed before it saved its manifest leaves (its lock, an empty chunk
    folder, a half-written manifest) is taken as new, as the gin store takes it, and the
    run then stores what an uninterrupted one does."""
    whole = tmp_path / "whole"
    save_deals(whole, SEATS, 30, seed=5, chunk=10)
    out = tmp_path / "killed"
    (out / "chunks").mkdir(parents=True)
    (out / LOCK).write_text(json.dumps({"host": socket.gethostname(), "pid": dead_pid(),
                                        "since": 0.0}))
    (out / f".{MANIFEST}.{dead_pid()}.tmp").write_text('{"defin')
    save_deals(out, SEATS, 30, seed=5, chunk=10)
    assert sorted(p.name for p in out.iterdir()) == ["chunks", MANIFEST]
    same_store(out, whole)


KILLED_WRITER = """
import os, sys, time
from ginsim.rami.play import store
def stop(*args, **kwargs):  # the first chunk never comes: wait to be killed
    open(sys.argv[2], "w").close()
    time.sleep(600)
store.play_deal_records = stop
store.save_deals(sys.argv[1], ["simple", "simple"], 30, seed=5, chunk=10)
"""


def test_a_rami_run_killed_before_its_first_chunk_resumes(tmp_path):
    """kill -9 of a writer before its first chunk: the rerun resumes the run and stores
    what an uninterrupted run stores."""
    whole = tmp_path / "whole"
    save_deals(whole, SEATS, 30, seed=5, chunk=10)
    out, ready = tmp_path / "killed", tmp_path / "ready"
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(out), str(ready)])
    deadline = time.monotonic() + 120
    while not ready.exists() and writer.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert ready.exists() and (out / LOCK).exists()
    save_deals(out, SEATS, 30, seed=5, chunk=10)
    same_store(out, whole)
