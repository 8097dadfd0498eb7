"""What every result store on disk shares, gin's run store, Rami's deal store and the
tournament store: the names of its manifest, lock and chunk folder, the bounds its manifest
is read within, its reader and atomic writer, the clean-up of what a killed writer left,
and the rule for which directory a writer may use (new, empty, a store, or the leftovers
of a run killed before it wrote its manifest)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..game.inputs.files import FileDataError, parse_json, read_bounded
from .chunkfile import is_temp
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
