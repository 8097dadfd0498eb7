"""A result store: a directory with ``manifest.json`` and one Parquet file per chunk.

::

    DIR/manifest.json        run definition (ginsim version, rules, strategies, seed, hand
                             ranges, chunk size, record columns) and per-chunk status
    DIR/.lock                present while a process writes (see ginsim.simulator.lock)
    DIR/chunks/j000-c000000.parquet   one finished chunk (records or aggregate tables)

Chunk files are the truth: resuming skips every chunk whose file exists and verifies
(:func:`~ginsim.simulator.chunkfile.check_chunk`); the manifest's status list is kept up
to date for people and tools. Anything unexpected is reported with its path and left
alone.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from . import chunkfile
from .aggregate import MOMENT_COLUMNS, TABLES, SparseTables, layout
from .jobs import Chunk, Job, plan_chunks
from .lock import StoreError, StoreLock
from .records import RECORD_DTYPE

FORMAT = "ginsim-store"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
LOCK = ".lock"
CHUNKS = "chunks"
RECORD_MODES = ("full", "summary")
SAVE_EVERY_S = 0.5  # the manifest's status list is rewritten at most this often


def definition(jobs: list[Job], records: str, chunk_hands: int) -> dict[str, Any]:
    """Everything that fixes a run's results (the part of the manifest a resume must match)."""
    return {
        "ginsim_version": __version__,
        "records": records,
        "chunk_hands": int(chunk_hands),
        "jobs": [job.to_dict() for job in jobs],
        "record_columns": [[n, RECORD_DTYPE[n].str] for n in RECORD_DTYPE.names],
        "tables": {t.name: list(t.keys) for t in TABLES},
        "moment_columns": list(MOMENT_COLUMNS),
    }


def run_id(defn: dict[str, Any]) -> str:
    """A short fingerprint of a run definition."""
    return hashlib.sha256(json.dumps(defn, sort_keys=True).encode()).hexdigest()[:16]


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _explain_mismatch(old: dict[str, Any], new: dict[str, Any]) -> str:
    if old.get("ginsim_version") != new["ginsim_version"]:
        return (f"it was written by ginsim {old.get('ginsim_version')}, this is "
                f"{new['ginsim_version']}")
    if old.get("records") != new["records"]:
        return f"it holds --records {old.get('records')}, not {new['records']}"
    if old.get("chunk_hands") != new["chunk_hands"]:
        return (f"it was cut into chunks of {old.get('chunk_hands')} hands, not "
                f"{new['chunk_hands']} (omit --chunk-hands to resume it)")
    old_jobs, new_jobs = old.get("jobs", []), new["jobs"]
    if len(old_jobs) != len(new_jobs):
        return f"it holds {len(old_jobs)} job(s), not {len(new_jobs)}"
    for j, (o, n) in enumerate(zip(old_jobs, new_jobs, strict=True)):
        for key in ("a", "b", "seed", "start", "stop", "duplicate", "rules"):
            if o.get(key) != n[key]:
                label = {"a": "strategy a", "b": "strategy b", "start": "first hand",
                         "stop": "hand range end"}.get(key, key)
                return f"job {j} has {label} {o.get(key)!r}, not {n[key]!r}"
    return "its record columns or table layout differ (another ginsim version?)"


class Store:
    """An open result store. Use :meth:`open_writer` to write, :meth:`open_reader` to read."""

    def __init__(self, root: Path, manifest: dict[str, Any], lock: StoreLock | None) -> None:
        self.root = root
        self.manifest = manifest
        self.lock = lock
        self.jobs = [Job.from_dict(d) for d in manifest["jobs"]]
        self.records = str(manifest["records"])
        self.chunk_hands = int(manifest["chunk_hands"])
        self.chunks = plan_chunks(self.jobs, self.chunk_hands)
        self.done: set[Chunk] = set()
        self._saved = 0.0

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open_writer(cls, root: str | os.PathLike, jobs: list[Job], records: str,
                    chunk_hands: int | None, default_chunk_hands: int) -> Store:
        """Create a store or reopen one to resume it; holds the lock until :meth:`close`."""
        root = Path(root)
        manifest_path = root / MANIFEST
        if root.exists() and not root.is_dir():
            raise StoreError(f"--out {root} is a file, not a directory; choose a directory")
        if root.is_dir() and not manifest_path.exists() and any(
                p.name != LOCK and not (p.name == CHUNKS and p.is_dir() and
                                        not any(p.iterdir())) for p in root.iterdir()):
            raise StoreError(f"{root} is not empty and holds no {MANIFEST}, so it is not a "
                             f"ginsim store; choose a new or empty directory for --out")
        try:
            (root / CHUNKS).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the store directory {root}: {exc.strerror}"
                             ) from None
        lock = StoreLock(root / LOCK)
        lock.acquire()
        try:
            if manifest_path.exists():
                old = read_manifest(root)
                size = chunk_hands if chunk_hands is not None else int(old["chunk_hands"])
                defn = definition(jobs, records, size)
                if old.get("run_id") != run_id(defn):
                    raise StoreError(f"{root} holds a different run: "
                                     f"{_explain_mismatch(old, defn)}; use another --out "
                                     f"directory, or repeat the original command to resume")
                store = cls(root, old, lock)
            else:
                defn = definition(jobs, records,
                                  chunk_hands if chunk_hands is not None else default_chunk_hands)
                manifest = {"format": FORMAT, "format_version": FORMAT_VERSION,
                            "run_id": run_id(defn), **defn,
                            "hands": sum(j.hands for j in jobs), "complete": False,
                            "created": _now(), "updated": _now(), "chunks": []}
                store = cls(root, manifest, lock)
            store._scan(clean_temp=True)
            store.save()
            return store
        except BaseException:
            lock.release()
            raise

    @classmethod
    def open_reader(cls, root: str | os.PathLike) -> Store:
        """Open a store read-only and verify its chunk files."""
        root = Path(root)
        if not (root / MANIFEST).exists():
            raise StoreError(f"{root} is not a ginsim store (no {MANIFEST}); give the "
                             f"directory passed to --out")
        store = cls(root, read_manifest(root), None)
        store._scan(clean_temp=False)
        return store

    # -- chunk files ---------------------------------------------------------------------
    def path(self, chunk: Chunk) -> Path:
        """Where a chunk's file lives."""
        return self.root / CHUNKS / f"{chunk.name}.parquet"

    def identity(self, chunk: Chunk) -> dict[str, Any]:
        """The stamp a chunk's file carries."""
        return {"run": self.manifest["run_id"], "job": chunk.job, "chunk": chunk.index,
                "start": chunk.start, "stop": chunk.stop,
                "kind": "records" if self.records == "full" else "tables"}

    def _scan(self, clean_temp: bool) -> None:
        """Find finished chunks; report a foreign or corrupt file by its path."""
        expected = {f"{c.name}.parquet": c for c in self.chunks}
        found = set()
        for entry in sorted((self.root / CHUNKS).iterdir()) if (
                self.root / CHUNKS).is_dir() else []:
            if chunkfile.is_temp(entry.name):
                if clean_temp:  # half-written by a killed run; we hold the lock
                    entry.unlink()
                continue
            chunk = expected.get(entry.name)
            if chunk is None or not entry.is_file():
                raise StoreError(f"{entry} is not a chunk of this store; move it out of "
                                 f"{self.root / CHUNKS} or delete it, then run again "
                                 f"(nothing was changed)")
            rows = chunk.hands if self.records == "full" else None
            chunkfile.check_chunk(entry, self.identity(chunk), rows)
            found.add(chunk)
        self.done = found

    def pending(self) -> list[Chunk]:
        """Chunks without a finished file, in order."""
        return [c for c in self.chunks if c not in self.done]

    def write(self, chunk: Chunk, records: np.ndarray | None,
              sparse: SparseTables | None) -> None:
        """Store one finished chunk (records in full mode, tables in summary mode)."""
        if self.records == "full":
            table = chunkfile.records_table(records)
        else:
            table = chunkfile.tables_table(sparse, layout(self.jobs[chunk.job].rules))
        chunkfile.write_chunk(self.path(chunk), table, self.identity(chunk))
        self.done.add(chunk)
        if time.monotonic() - self._saved > SAVE_EVERY_S:
            self.save()

    def read_records(self, chunk: Chunk) -> np.ndarray:
        """Per-hand records of a finished chunk (full mode)."""
        dtype = np.dtype([(n, s) for n, s in self.manifest["record_columns"]])
        return chunkfile.read_records(self.path(chunk), dtype)

    def read_sparse(self, chunk: Chunk) -> SparseTables:
        """Aggregate tables of a finished chunk (from records in full mode)."""
        lay = layout(self.jobs[chunk.job].rules)
        if self.records == "full":
            return lay.sparse(self.read_records(chunk))
        return chunkfile.read_tables(self.path(chunk), lay)

    # -- manifest ------------------------------------------------------------------------
    def save(self, **extra: Any) -> None:
        """Rewrite the manifest (atomically) with the current chunk status."""
        self.manifest["chunks"] = [
            {"job": c.job, "index": c.index, "start": c.start, "stop": c.stop,
             "file": f"{CHUNKS}/{c.name}.parquet",
             "status": "done" if c in self.done else "pending"} for c in self.chunks]
        self.manifest["complete"] = len(self.done) == len(self.chunks)
        self.manifest["updated"] = _now()
        self.manifest.update(extra)
        tmp = self.root / f".{MANIFEST}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(self.manifest, indent=1) + "\n")
        os.replace(tmp, self.root / MANIFEST)
        self._saved = time.monotonic()

    def close(self) -> None:
        """Save the manifest and release the lock."""
        if self.lock is not None and self.lock.held:
            try:
                self.save()
            finally:
                self.lock.release()


def read_manifest(root: Path) -> dict[str, Any]:
    """The parsed manifest; StoreError naming the file if it is not a ginsim manifest."""
    path = Path(root) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise StoreError(f"{path} is not a readable ginsim manifest ({exc}); restore it or "
                         f"use another --out directory (nothing was changed)") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise StoreError(f"{path} is not a ginsim manifest (no \"format\": \"{FORMAT}\"); "
                         f"use another --out directory (nothing was changed)")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise StoreError(f"{path} has store format {manifest.get('format_version')}, this "
                         f"ginsim reads {FORMAT_VERSION}; use the ginsim that wrote it")
    try:
        [Job.from_dict(d) for d in manifest["jobs"]]
        int(manifest["chunk_hands"])
        if manifest["records"] not in RECORD_MODES:
            raise ValueError(manifest["records"])
    except (KeyError, TypeError, ValueError) as exc:
        raise StoreError(f"{path} is damaged ({type(exc).__name__}: {exc}); restore it or use "
                         f"another --out directory (nothing was changed)") from None
    return manifest
