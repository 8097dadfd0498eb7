"""What every result store on disk shares, gin's run store, Rami's deal store and the
tournament store: the names of its manifest, lock and chunk folder, the bounds its manifest
is read within, its reader and atomic writer, the clean-up of what a killed writer left,
and the rule for which directory a writer may use (new, empty, a store, or the leftovers
of a run killed before it wrote its manifest). A store whose manifest records its chunks
by name (``chunks: {name: {sha256, bytes}}``: Rami's deal store and the tournament store)
also shares the check of those entries, the read of the chunks it holds and the record
of one played."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..game.inputs.checks import is_int
from ..game.inputs.files import FileDataError, parse_json, read_bounded
from .chunkfile import is_temp, read_verified, write_chunk
from .lock import StoreError

MANIFEST = "manifest.json"  # the store's manifest, in its root
LOCK = ".lock"  # the writer's lock file, in its root (:class:`~ginsim.runner.lock.StoreLock`)
CHUNKS = "chunks"  # the folder of the chunk files, in its root
#: A manifest is read only if it is a regular file of at most this size, nesting at most
#: this deep (it nests 3 deep; its size grows about 250 bytes a chunk), and a store is
#: created only with at most ``MAX_STORE_CHUNKS`` chunks, so its manifest stays below.
MAX_MANIFEST_BYTES = 512 * 2**20
MAX_MANIFEST_DEPTH = 8
MAX_STORE_CHUNKS = 1_000_000


def is_manifest_temp(name: str) -> bool:
    """Whether a file name is a manifest temporary left by a killed run."""
    return name.startswith(f".{MANIFEST}.") and name.endswith(".tmp")


def check_place(root: Path, what: str = "ginsim store") -> None:
    """StoreError unless ``root`` is missing, empty, already a store, or holds only what a
    writer killed before its first manifest leaves (its lock, a manifest temporary, an
    empty chunk folder): a writer may use it; the lock decides whether it is stale."""
    if root.exists() and not root.is_dir():
        raise StoreError(f"--out {root} is a file, not a directory; choose a directory")
    if root.is_dir() and not (root / MANIFEST).exists() and any(
            p.name != LOCK and not is_manifest_temp(p.name) and not (
                p.name == CHUNKS and p.is_dir() and not any(p.iterdir()))
            for p in root.iterdir()):
        raise StoreError(f"{root} is not empty and holds no {MANIFEST}, so it is not a "
                         f"{what}; choose a new or empty directory for --out")


def read_stored_manifest(root: Path, what: str, hint: str = "") -> Any | None:
    """The parsed manifest of the store ``root`` (``what`` names it in errors), read as
    data from a stranger: a regular file within :data:`MAX_MANIFEST_BYTES`, nesting
    checked before parsing, no repeated keys; None when there is none, a one-line
    StoreError (ending with ``hint``) when it cannot be read. Its shape is the caller's
    to check."""
    path = root / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    try:
        return parse_json(read_bounded(path, MAX_MANIFEST_BYTES, what), str(path),
                          MAX_MANIFEST_DEPTH, hint)
    except FileDataError as exc:
        raise StoreError(str(exc)) from None


def remove_temps(root: Path) -> None:
    """Delete the chunk and manifest files a killed writer left half-written, in the root
    and its chunk folder (the caller holds the lock)."""
    for place in (root, root / CHUNKS):
        for entry in place.iterdir() if place.is_dir() else ():
            if is_temp(entry.name) or is_manifest_temp(entry.name):
                entry.unlink(missing_ok=True)


def make_chunks_dir(root: Path) -> None:
    """Create ``root`` and its chunk folder; one-line StoreError when that fails."""
    try:
        (root / CHUNKS).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the store directory {root / CHUNKS}: "
                         f"{exc.strerror or exc}; choose a writable place for --out") from None


def remove_manifest_temps(root: Path) -> None:
    """Delete manifests half-written by a killed run (the caller holds the lock)."""
    for leftover in root.iterdir():
        if is_manifest_temp(leftover.name):
            leftover.unlink(missing_ok=True)


def save_manifest(root: Path, manifest: dict[str, Any], durable: bool = False) -> None:
    """Replace the manifest atomically; ``durable`` also flushes it to disk (the chunk
    files always are: a manifest lost to a power cut loses only its last records, and
    their chunks are played again)."""
    tmp = root / f".{MANIFEST}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w") as f:
            f.write(json.dumps(manifest, indent=1) + "\n")
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, root / MANIFEST)
    except OSError as exc:
        raise StoreError(f"could not write {root / MANIFEST}: {exc.strerror or exc}; the "
                         f"manifest and the chunks already recorded in it are intact: fix "
                         f"that (free space, write permission) and run the same command "
                         f"again to resume") from None
    finally:
        tmp.unlink(missing_ok=True)


def chunk_path(root: Path, name: str) -> Path:
    """Where the chunk ``name`` of the store ``root`` lives."""
    return root / CHUNKS / f"{name}.parquet"


def chunk_entries_problem(chunks: Any) -> str:
    """What is wrong with a manifest's chunks by name ("" when nothing): an object of at
    most :data:`MAX_STORE_CHUNKS` entries ``{sha256: text, bytes: a whole number}``."""
    if not isinstance(chunks, dict) or len(chunks) > MAX_STORE_CHUNKS:
        return f"chunks must be an object of at most {MAX_STORE_CHUNKS:,} entries"
    for name, entry in chunks.items():
        if not isinstance(entry, dict) or set(entry) != {"sha256", "bytes"} \
                or not isinstance(entry["sha256"], str) or not is_int(entry["bytes"]) \
                or entry["bytes"] < 0:
            return f"chunk {name!r} must be {{sha256: text, bytes: a whole number}}"
    return ""


def stored_tables(root: Path, manifest: dict[str, Any],
                  chunks: Iterable[tuple[str, dict[str, Any], int | None]]
                  ) -> Iterator[tuple[str, dict[str, Any], pa.Table | None]]:
    """Each of ``chunks`` (name, stamp, rows or None) in order, its name and stamp with
    its table where the
    store holds it, verified (SHA-256 and size as recorded, page checksums, stamp, rows),
    None where it lacks it (no entry, or no file); read one at a time, as asked."""
    for name, stamp, rows in chunks:
        entry = manifest["chunks"].get(name)
        path = chunk_path(root, name)
        if entry is None or not path.exists():
            yield name, stamp, None
        else:
            yield name, stamp, read_verified(path, entry["sha256"], stamp, rows,
                                             entry["bytes"])


def record_chunk(root: Path, manifest: dict[str, Any], name: str, table: pa.Table,
                 stamp: dict[str, Any]) -> None:
    """Store a played chunk: its file (stamped, atomic), then its digest in the manifest,
    saved."""
    manifest["chunks"][name] = write_chunk(chunk_path(root, name), table, stamp)
    save_manifest(root, manifest)
