"""A Rami result store: deal records as Parquet chunks with a JSON manifest, on the
runner's store files (``ginsim.runner.store_files``: its chunk files stamped,
checksummed and atomic, read back and recorded by name as the tournament store's).

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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..._version import __version__
from ...game.inputs.checks import check_int, check_path, is_int
from ...game.rng_nb import check_seed
from ...runner.chunkfile import records_from, records_table
from ...runner.lock import StoreError, StoreLock
from ...runner.pool import index_chunks
from ...runner.store_files import (
    LOCK,
    MANIFEST,
    check_place,
    chunk_entries_problem,
    chunk_path,
    make_chunks_dir,
    read_stored_manifest,
    record_chunk,
    remove_temps,
    save_manifest,
    stored_tables,
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
    return (_definition_problem(manifest["definition"])
            or chunk_entries_problem(manifest["chunks"]))


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


def _chunks(defn: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], int]]:
    """The run's chunks in deal order: (name, the stamp its file carries, its rows)."""
    players = len(defn["strategies"])
    for index, (start, stop) in enumerate(index_chunks(0, defn["deals"], defn["chunk"])):
        yield (f"c{index:06d}", {**defn, "version": __version__, "index": index,
                                 "start": start, "stop": stop}, (stop - start) * players)


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
    for name, stamp, table in stored_tables(root, manifest, _chunks(defn)):
        if table is None:
            records, _ = play_deal_records(seats, start=stamp["start"], stop=stamp["stop"],
                                           seed=defn["seed"], rules=rules)
            record_chunk(root, manifest, name, records_table(records), stamp)
    save_manifest(root, manifest)
    return manifest


def load_deals(store: str | os.PathLike) -> np.ndarray:
    """Every record of a rami store, in deal order, each chunk verified (SHA-256, page
    checksums, stamp, row count); StoreError names a damaged or missing chunk."""
    root = Path(store)
    manifest = _read_manifest(root)
    if manifest is None:
        raise StoreError(f"{root} holds no rami store (no {MANIFEST})")
    parts = []
    for name, _, table in stored_tables(root, manifest, _chunks(manifest["definition"])):
        if table is None:
            raise StoreError(f"{root} is incomplete: chunk {name} is not stored; run the "
                             f"same simulate --out command again to finish it")
        parts.append(records_from(chunk_path(root, name), table, RAMI_RECORD_DTYPE))
    return np.concatenate(parts)
