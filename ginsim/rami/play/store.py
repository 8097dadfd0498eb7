"""A Rami result store: deal records as Parquet chunks with a JSON manifest, on the
project's chunk files (``ginsim.runner.chunkfile``: stamped, checksummed, atomic).

A store directory holds ``manifest.json`` (what the run is: strategies, rules, seed,
deals, chunk size; and each stored chunk's SHA-256) and ``chunks/cNNNNNN.parquet``.
Writing to a store that holds the same run resumes it: stored chunks are verified and
kept, the rest are played. A store of another run is refused, naming what differs. The
manifest is saved before the first chunk, and a directory holding only what a writer
killed before that leaves (its stale lock, an empty chunk folder) is taken as new, as the
gin store takes it (:func:`ginsim.runner.store_files.check_place`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..._version import __version__
from ...game.inputs.checks import check_int, check_path, is_int
from ...game.rng_nb import check_seed
from ...runner.chunkfile import (
    read_verified,
    records_from,
    records_table,
    write_chunk,
)
from ...runner.lock import StoreError, StoreLock
from ...runner.pool import index_chunks
from ...runner.store_files import (
    CHUNKS,
    LOCK,
    MANIFEST,
    MAX_STORE_CHUNKS,
    check_place,
    make_chunks_dir,
    read_stored_manifest,
    remove_temps,
    save_manifest,
)
from ..game.rules import RamiRules
from .engine import MAX_DEALS, check_strategies, play_deal_records
from .records import RAMI_RECORD_DTYPE
from .runner import DEFAULT_CHUNK

KIND = "ginsim.rami.deals"
#: the keys of a Rami deal run's definition (gin's runs define theirs in the runner)
DEAL_DEFINITION_KEYS = {"kind", "strategies", "rules", "seed", "deals", "chunk", "record"}


def _definition(seats: list[str], rules: RamiRules, seed: int, deals: int, chunk: int
                ) -> dict[str, Any]:
    return {"kind": KIND, "strategies": seats, "rules": rules.to_dict(), "seed": seed,
            "deals": deals, "chunk": chunk, "record": str(RAMI_RECORD_DTYPE.descr)}


def _read_manifest(root: Path) -> dict[str, Any] | None:
    """The store's manifest, read as data from a stranger (the gin store's reader: a
    regular file within a size bound, nesting checked before parsing, no repeated keys)
    and checked key by key; None when there is none. One-line StoreError otherwise."""
    hint = "move the directory away or choose another --out"
    manifest = read_stored_manifest(root, "rami manifest", hint)
    if manifest is None:
        return None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("definition"), dict) \
            or manifest["definition"].get("kind") != KIND:
        raise StoreError(f"{root} holds no rami deal store; choose another directory")
    problem = _manifest_problem(manifest)
    if problem:
        raise StoreError(f"{root / MANIFEST} is not a rami manifest ginsim wrote: {problem}; "
                         f"{hint}")
    return manifest


def _manifest_problem(manifest: dict[str, Any]) -> str:
    """What is wrong with a parsed manifest's shape ("" when nothing)."""
    if set(manifest) != {"definition", "chunks"}:
        return "its keys must be definition and chunks"
    return _definition_problem(manifest["definition"]) or _chunks_problem(manifest["chunks"])


def _definition_problem(defn: dict[str, Any]) -> str:
    """What is wrong with a manifest's run definition ("" when nothing)."""
    if set(defn) != DEAL_DEFINITION_KEYS:
        return f"its definition must hold {', '.join(sorted(DEAL_DEFINITION_KEYS))}"
    for key in ("seed", "deals", "chunk"):
        if not is_int(defn[key]) or defn[key] < (0 if key == "seed" else 1):
            return f"definition.{key} must be a whole number"
    if not isinstance(defn["strategies"], list) or not all(
            isinstance(x, str) for x in defn["strategies"]):
        return "definition.strategies must be a list of strategy specs"
    return ""


def _chunks_problem(chunks: Any) -> str:
    """What is wrong with a manifest's chunk entries ("" when nothing)."""
    if not isinstance(chunks, dict) or len(chunks) > MAX_STORE_CHUNKS:
        return f"chunks must be an object of at most {MAX_STORE_CHUNKS:,} entries"
    for name, entry in chunks.items():
        if not isinstance(entry, dict) or set(entry) != {"sha256", "bytes"} \
                or not isinstance(entry["sha256"], str) or not is_int(entry["bytes"]) \
                or entry["bytes"] < 0:
            return f"chunk {name!r} must be {{sha256: text, bytes: a whole number}}"
    return ""


def _stamp(defn: dict[str, Any], index: int, start: int, stop: int) -> dict[str, Any]:
    return {**defn, "version": __version__, "index": index, "start": start, "stop": stop}


def save_deals(out: str | os.PathLike, strategies: Sequence[Any], deals: int, *,
               seed: int = 0, rules: RamiRules | str | None = None,
               chunk: int | None = None) -> dict[str, Any]:
    """Play ``deals`` deals into the store ``out`` (created, or resumed if it holds this
    run); returns the manifest. A store of another run is a one-line StoreError."""
    seats = [s.spec for s in check_strategies(strategies)]
    rules = RamiRules.coerce(rules)
    deals = check_int(deals, "deals", 1, MAX_DEALS)
    chunk = check_int(chunk or DEFAULT_CHUNK, "chunk", 1, MAX_DEALS)
    seed = check_seed(seed)
    defn = _definition(seats, rules, seed, deals, chunk)
    root = Path(check_path(out, "out", "a directory path"))
    check_place(root, "rami store")  # a lock-only folder (a writer killed early) is fine
    make_chunks_dir(root)
    with StoreLock(root / LOCK):  # one writer at a time, as the gin store
        remove_temps(root)
        manifest = _read_manifest(root)
        if manifest is not None and manifest["definition"] != defn:
            differ = sorted(k for k in defn if manifest["definition"].get(k) != defn[k])
            raise StoreError(f"{root} holds another rami run (its {', '.join(differ)} "
                             f"differ); choose another directory or repeat that run's "
                             f"arguments")
        if manifest is None:  # saved before any chunk, so a killed run is resumed
            manifest = {"definition": defn, "chunks": {}}
            save_manifest(root, manifest)
        return _play_into(root, manifest, defn, seats, rules)


def _play_into(root: Path, manifest: dict[str, Any], defn: dict[str, Any],
               seats: list[str], rules: RamiRules) -> dict[str, Any]:
    """Play the chunks the manifest lacks (verifying the ones it has), saving it after
    each; returns it."""
    deals, chunk, seed = defn["deals"], defn["chunk"], defn["seed"]
    players = len(seats)
    for index, (start, stop) in enumerate(index_chunks(0, deals, chunk)):
        name = f"c{index:06d}"
        path = root / CHUNKS / f"{name}.parquet"
        stamp = _stamp(defn, index, start, stop)
        entry = manifest["chunks"].get(name)
        if entry is not None and path.exists():
            read_verified(path, entry["sha256"], stamp, (stop - start) * players)
            continue
        records, _ = play_deal_records(seats, start=start, stop=stop, seed=seed, rules=rules)
        manifest["chunks"][name] = write_chunk(path, records_table(records), stamp)
        save_manifest(root, manifest)
    save_manifest(root, manifest)
    return manifest


def load_deals(store: str | os.PathLike) -> np.ndarray:
    """Every record of a rami store, in deal order, each chunk verified (SHA-256, page
    checksums, stamp, row count); StoreError names a damaged or missing chunk."""
    root = Path(store)
    manifest = _read_manifest(root)
    if manifest is None:
        raise StoreError(f"{root} holds no rami store (no {MANIFEST})")
    defn = manifest["definition"]
    players = len(defn["strategies"])
    parts = []
    for index, (start, stop) in enumerate(index_chunks(0, defn["deals"], defn["chunk"])):
        name = f"c{index:06d}"
        entry = manifest["chunks"].get(name)
        path = root / CHUNKS / f"{name}.parquet"
        if entry is None:
            raise StoreError(f"{root} is incomplete: chunk {name} was never stored; run the "
                             f"same simulate --out command again to finish it")
        table = read_verified(path, entry["sha256"], _stamp(defn, index, start, stop),
                              (stop - start) * players)
        parts.append(records_from(path, table, RAMI_RECORD_DTYPE))
    return np.concatenate(parts)
