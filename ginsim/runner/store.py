"""A result store: a directory with ``manifest.json`` and one Parquet file per chunk.

::

    DIR/manifest.json        run definition (ginsim version, rules, strategies, seed, hand
                             ranges, chunk size, record columns), its run id, and one entry
                             per committed chunk with the SHA-256 of its file
    DIR/.lock                present while a process writes (see ginsim.runner.lock)
    DIR/chunks/j000-c000000.parquet   one finished chunk (records or aggregate tables)

A chunk counts as stored when its file exists, its stamp agrees with the manifest and
the manifest records its SHA-256; every read checks the checksum (and the Parquet page
checksums) on the bytes it parses, so a changed byte is an error naming the file, never
changed numbers. The manifest's own run id must match its contents, and each chunk's
stamp must match the manifest field by field, so editing one without the other is
caught. A chunk file that a killed run renamed into place but did not yet record has
no known checksum: a resume says so and plays it again; ``load`` leaves it out. Anything
unexpected is reported with its path and left alone; failed writes (a full disk, a
read-only directory) are one-line errors that leave what was stored intact. The manifest
is read as data from a stranger (bounded, regular files only, checked against a schema:
see :mod:`ginsim.runner.manifest`), and so are the lock and the chunk files.
"""

from __future__ import annotations

import datetime as _dt
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..simulator.machine.records import RECORD_DTYPE
from . import chunkfile
from .aggregate import SparseTables, layout
from .jobs import Chunk, ChunkPlan, Job, plan_chunks
from .lock import StoreError, StoreLock
from .manifest import (
    CHUNK_ENTRY_KEYS,
    DEFINITION_KEYS,
    FORMAT,
    FORMAT_VERSION,
    SHA256,
    definition,
    definition_of,
    explain_mismatch,
    layout_definition,
    read_manifest,
    run_id,
)
from .store_files import (
    CHUNKS,
    LOCK,
    MANIFEST,
    MAX_STORE_CHUNKS,
    check_place,
    chunk_path,
    make_chunks_dir,
    remove_manifest_temps,
    save_manifest,
)

#: The manifest is rewritten after a chunk is committed unless the last rewrite was less
#: than this many times its own cost ago (so rewriting takes at most ~10% of the time,
#: and a kill loses the checksums of little more than the chunks in that window).
SAVE_COST_RATIO = 10


class StoreNotice(UserWarning):
    """Something a resume did that the user should know of (it is also in
    ``RunResult.notes``)."""


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Store:
    """An open result store. Use :meth:`open_writer` to write, :meth:`open_reader` to read."""

    def __init__(self, root: Path, manifest: dict[str, Any], lock: StoreLock | None) -> None:
        self.root = root
        self.manifest = manifest
        self.lock = lock
        self.jobs = [Job.from_dict(d) for d in manifest["jobs"]]
        self.records = str(manifest["records"])
        self.chunk_hands = int(manifest["chunk_hands"])
        self.chunks: ChunkPlan = plan_chunks(self.jobs, self.chunk_hands)
        self.recorded: dict[Chunk, dict[str, Any]] = _recorded(root, manifest, self.chunks)
        self.done: set[Chunk] = set()
        self.unrecorded: list[Chunk] = []
        self.notices: list[str] = []
        self._saved = 0.0
        self._save_cost = 0.0
        self._written = False  # whether this writer stored a chunk

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open_writer(cls, root: str | os.PathLike, jobs: list[Job], records: str,
                    chunk_hands: int | None, default_chunk_hands: int) -> Store:
        """Create a store or reopen one to resume it; holds the lock until :meth:`close`."""
        root = Path(root)
        check_place(root)
        make_chunks_dir(root)
        lock = StoreLock(root / LOCK)
        lock.acquire()
        try:
            remove_manifest_temps(root)
            if (root / MANIFEST).exists():
                # saved once a chunk is played: a resume refused before (a damaged
                # chunk read back) leaves the manifest byte for byte as it was
                return cls._resume(root, lock, jobs, records, chunk_hands)
            size = chunk_hands if chunk_hands is not None else default_chunk_hands
            store = cls._create(root, lock, jobs, records, size)
            store.save()
            return store
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _create(cls, root: Path, lock: StoreLock, jobs: list[Job], records: str,
                chunk_hands: int) -> Store:
        """A new store's manifest (saved by the caller)."""
        defn = definition(jobs, records, chunk_hands)
        manifest = {"format": FORMAT, "format_version": FORMAT_VERSION,
                    "run_id": run_id(defn), **defn, "created": _now(), "chunks": []}
        store = cls(root, manifest, lock)
        if len(store.chunks) > MAX_STORE_CHUNKS:
            raise StoreError(f"this run would be stored as {len(store.chunks):,} chunks, at "
                             f"most {MAX_STORE_CHUNKS:,} fit one store (its manifest stays "
                             f"readable); give larger --chunk-hands or split the run")
        store._scan(clean_temp=True)
        return store

    @classmethod
    def _resume(cls, root: Path, lock: StoreLock, jobs: list[Job], records: str,
                chunk_hands: int | None) -> Store:
        """Reopen a store to go on with its run; StoreError if it holds another run."""
        old = read_manifest(root)
        store = cls(root, old, lock)
        store._scan(clean_temp=True)
        store._check_run_id()
        defn = definition(jobs, records,
                          chunk_hands if chunk_hands is not None else store.chunk_hands)
        if old["run_id"] != run_id(defn):
            raise StoreError(f"{root} holds a different run: {explain_mismatch(old, defn)}; "
                             f"use another --out directory, or repeat the original command "
                             f"to resume")
        if store.unrecorded:
            first = store.path(store.unrecorded[0])
            store.notices.append(
                f"{len(store.unrecorded)} chunk file(s), first {first}, were written but not "
                f"recorded in {root / MANIFEST} before the last run stopped, so their "
                f"checksums are unknown: playing them again")
        return store

    @classmethod
    def open_reader(cls, root: str | os.PathLike) -> Store:
        """Open a store read-only; check its manifest and every chunk file's stamp (the
        checksums are checked as each chunk is read)."""
        root = Path(root)
        if not (root / MANIFEST).exists():
            raise StoreError(f"{root} is not a ginsim store (no {MANIFEST}); give the "
                             f"directory passed to --out")
        store = cls(root, read_manifest(root), None)
        store._scan(clean_temp=False)
        store._check_run_id()
        return store

    # -- chunk files ---------------------------------------------------------------------
    def path(self, chunk: Chunk) -> Path:
        """Where a chunk's file lives."""
        return chunk_path(self.root, chunk.name)

    def identity(self, chunk: Chunk) -> dict[str, Any]:
        """The stamp a chunk's file carries: its job's whole definition and its place."""
        job = self.manifest["jobs"][chunk.job]
        return {"run": self.manifest["run_id"],
                **{k: self.manifest[k] for k in DEFINITION_KEYS if k != "jobs"},
                "a": job["a"], "b": job["b"], "rules": job["rules"], "seed": job["seed"],
                "duplicate": job["duplicate"], "job_start": job["start"],
                "job_stop": job["stop"], "job": chunk.job, "chunk": chunk.index,
                "start": chunk.start, "stop": chunk.stop,
                "kind": "records" if self.records == "full" else "tables"}

    def _scan(self, clean_temp: bool) -> None:
        """Find finished chunks; report a foreign or corrupt file by its path."""
        chunks_dir = self.root / CHUNKS
        found: set[Chunk] = set()
        unrecorded: list[Chunk] = []
        try:
            entries = sorted(chunks_dir.iterdir()) if chunks_dir.is_dir() else []
        except OSError as exc:
            raise StoreError(f"cannot list {chunks_dir}: {exc.strerror or exc}") from None
        for entry in entries:
            if chunkfile.is_temp(entry.name):
                if clean_temp:  # half-written by a killed run; we hold the lock
                    try:
                        entry.unlink()
                    except OSError:
                        pass
                continue
            chunk = self.chunks.by_name(entry.name.removesuffix(".parquet")) if (
                entry.name.endswith(".parquet")) else None
            if chunk is None or not entry.is_file():
                raise StoreError(f"{entry} is not a chunk of this store; move it out of "
                                 f"{chunks_dir} or delete it, then run again "
                                 f"(nothing was changed)")
            chunkfile.check_stamp(entry, chunkfile.read_stamp(entry), self.identity(chunk))
            if chunk in self.recorded:
                found.add(chunk)
            else:
                unrecorded.append(chunk)
        self.done = found
        self.unrecorded = unrecorded

    def _check_run_id(self) -> None:
        """StoreError unless the manifest's run id matches its contents and its layout is
        this ginsim's (an edited manifest with no chunk to contradict it)."""
        path = self.root / MANIFEST
        if self.manifest["run_id"] != run_id(definition_of(self.manifest)):
            raise StoreError(f"{path} was changed after it was written: its run id "
                             f"{self.manifest['run_id']} does not match the run it describes; "
                             f"restore it, or use another --out directory (nothing was "
                             f"changed)")
        ours = layout_definition()
        for key in ours:
            if self.manifest[key] != ours[key]:
                raise StoreError(f"{path} was written by ginsim "
                                 f"{self.manifest['ginsim_version']} with other {key} than "
                                 f"ginsim {__version__} uses; read it with that version")

    def pending(self) -> Iterator[Chunk]:
        """Chunks without a stored file, in order (computed lazily)."""
        return (c for c in self.chunks if c not in self.done)

    def write(self, chunk: Chunk, records: np.ndarray | None,
              sparse: SparseTables | None) -> None:
        """Store one finished chunk (records in full mode, tables in summary mode)."""
        if self.records == "full":
            table = chunkfile.records_table(records)
        else:
            table = chunkfile.tables_table(sparse, layout(self.jobs[chunk.job].rules))
        digest = chunkfile.write_chunk(self.path(chunk), table, self.identity(chunk))
        self.recorded[chunk] = {"job": chunk.job, "index": chunk.index, "start": chunk.start,
                                "stop": chunk.stop, "file": f"{CHUNKS}/{chunk.name}.parquet",
                                **digest}
        self.done.add(chunk)
        self._written = True
        if time.monotonic() - self._saved >= SAVE_COST_RATIO * self._save_cost:
            self.save()

    def _table(self, chunk: Chunk):
        entry = self.recorded[chunk]
        rows = chunk.hands if self.records == "full" else None
        return chunkfile.read_verified(self.path(chunk), entry["sha256"], self.identity(chunk),
                                       rows, entry.get("bytes"))

    def read_records(self, chunk: Chunk) -> np.ndarray:
        """Per-hand records of a finished chunk (full mode), checksum verified."""
        return chunkfile.records_from(self.path(chunk), self._table(chunk), RECORD_DTYPE)

    def read_sparse(self, chunk: Chunk) -> SparseTables:
        """Aggregate tables of a finished chunk (from records in full mode), checksum
        verified."""
        lay = layout(self.jobs[chunk.job].rules)
        if self.records == "full":
            return lay.sparse(self.read_records(chunk), self.jobs[chunk.job].duplicate)
        return chunkfile.tables_from(self.path(chunk), self._table(chunk), lay)

    # -- manifest ------------------------------------------------------------------------
    def save(self, durable: bool = False, **extra: Any) -> None:
        """Rewrite the manifest (atomically) with the committed chunks and their checksums;
        ``durable`` also flushes it to disk (the chunk files always are)."""
        t0 = time.monotonic()
        self.manifest["chunks"] = [
            dict(self.recorded[c], status="done")
            for c in sorted(self.done, key=lambda c: (c.job, c.index))]
        self.manifest["hands"] = sum(j.hands for j in self.jobs)
        self.manifest["chunks_total"] = len(self.chunks)
        self.manifest["complete"] = len(self.done) == len(self.chunks)
        self.manifest["updated"] = _now()
        self.manifest.update(extra)
        save_manifest(self.root, self.manifest, durable)
        self._saved = time.monotonic()
        self._save_cost = self._saved - t0

    def close(self, failed: bool = False) -> None:
        """Save the manifest and release the lock. After a failure (``failed``) the
        manifest is saved only if this writer stored a chunk, and one that cannot be saved
        is left as it was, so the first error is the one reported."""
        if self.lock is not None and self.lock.held:
            try:
                if self._written or not failed:
                    self.save(durable=True)
            except StoreError:
                if not failed:
                    raise
            finally:
                self.lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type: type | None, *rest: object) -> None:
        self.close(failed=exc_type is not None)


def _recorded(root: Path, manifest: dict[str, Any], plan: ChunkPlan
              ) -> dict[Chunk, dict[str, Any]]:
    """The manifest's chunk entries by chunk; StoreError if one does not fit the plan."""
    out: dict[Chunk, dict[str, Any]] = {}
    for i, entry in enumerate(manifest["chunks"]):
        chunk = None
        try:
            ints = all(type(entry[k]) is int for k in ("job", "index", "start", "stop"))
            chunk = plan.chunk(entry["job"], entry["index"]) if ints else None
            ok = chunk is not None and (entry["start"], entry["stop"], entry["file"]) == (
                chunk.start, chunk.stop, f"{CHUNKS}/{chunk.name}.parquet") and isinstance(
                entry["sha256"], str) and SHA256.fullmatch(entry["sha256"]) is not None
            ok = ok and set(entry) <= CHUNK_ENTRY_KEYS and entry.get("status", "done") == (
                "done") and (type(entry.get("bytes", 0)) is int and entry.get("bytes", 0) >= 0)
        except (KeyError, TypeError, ValueError, IndexError):
            ok = False
        if not ok or chunk in out:
            raise StoreError(f"{root / MANIFEST} is damaged: its chunk entry {i} does not "
                             f"describe a chunk of this run; restore it or use another --out "
                             f"directory (nothing was changed)")
        out[chunk] = entry
    return out
