"""The Rami deal store reads its manifest as data from strangers and has one writer at a
time, through the gin store's own reader and lock: a FIFO or an oversized manifest is
refused without waiting or reading it whole, a manifest of the wrong shape is refused
in one line, and a second writer is refused while the first holds the lock."""

import json
import os
import socket
import time

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
