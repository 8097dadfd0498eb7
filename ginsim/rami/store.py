"""A Rami result store: deal records as Parquet chunks with a JSON manifest, on the
project's chunk files (``ginsim.runner.chunkfile``: stamped, checksummed, atomic).

A store directory holds ``manifest.json`` (what the run is: strategies, rules, seed,
deals, chunk size; and each stored chunk's SHA-256) and ``chunks/cNNNNNN.parquet``.
Writing to a store that holds the same run resumes it: stored chunks are verified and
kept, the rest are played. A store of another run is refused, naming what differs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..runner.chunkfile import read_verified, records_from, records_table, write_chunk
from ..runner.lock import StoreError
from .engine import MAX_DEALS, check_strategies, check_whole, play_deal_records
from .records import RAMI_RECORD_DTYPE
from .rules import RamiRules
from .runner import DEFAULT_CHUNK

MANIFEST = "manifest.json"
KIND = "ginsim.rami.deals"


def _definition(seats: list[str], rules: RamiRules, seed: int, deals: int, chunk: int
                ) -> dict[str, Any]:
    return {"kind": KIND, "strategies": seats, "rules": rules.to_dict(), "seed": seed,
            "deals": deals, "chunk": chunk, "record": str(RAMI_RECORD_DTYPE.descr)}


def _read_manifest(root: Path) -> dict[str, Any] | None:
    path = root / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise StoreError(f"{path} is not a readable rami manifest ({exc}); move the "
                         f"directory away or choose another --out") from None
    if not isinstance(manifest, dict) or manifest.get("definition", {}).get("kind") != KIND:
        raise StoreError(f"{root} holds no rami deal store; choose another directory")
    return manifest


def _save_manifest(root: Path, manifest: dict[str, Any]) -> None:
    tmp = root / f".{MANIFEST}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True))
        os.replace(tmp, root / MANIFEST)
    except OSError as exc:
        raise StoreError(f"could not write {root / MANIFEST}: {exc.strerror or exc}; the "
                         f"chunks stored before are intact") from None


def _stamp(defn: dict[str, Any], index: int, start: int, stop: int) -> dict[str, Any]:
    return {**defn, "version": __version__, "index": index, "start": start, "stop": stop}


def save_deals(out: str | os.PathLike, strategies: Sequence[Any], deals: int, *,
               seed: int = 0, rules: RamiRules | str | None = None,
               chunk: int | None = None) -> dict[str, Any]:
    """Play ``deals`` deals into the store ``out`` (created, or resumed if it holds this
    run); returns the manifest. A store of another run is a one-line StoreError."""
    seats = [s.spec for s in check_strategies(strategies)]
    rules = RamiRules.coerce(rules)
    deals = check_whole(deals, "deals", 1, MAX_DEALS)
    chunk = check_whole(chunk or DEFAULT_CHUNK, "chunk", 1, MAX_DEALS)
    seed = check_whole(seed, "seed", 0, 2**63 - 1)
    defn = _definition(seats, rules, seed, deals, chunk)
    root = Path(out)
    manifest = _read_manifest(root) if root.exists() else None
    if manifest is not None and manifest["definition"] != defn:
        differ = sorted(k for k in defn if manifest["definition"].get(k) != defn[k])
        raise StoreError(f"{root} holds another rami run (its {', '.join(differ)} differ); "
                         f"choose another directory or repeat that run's arguments")
    if manifest is None:
        if root.exists() and any(root.iterdir()):
            raise StoreError(f"{root} is not empty and holds no rami store; choose a new "
                             f"or empty directory")
        manifest = {"definition": defn, "chunks": {}}
    (root / "chunks").mkdir(parents=True, exist_ok=True)
    players = len(seats)
    for index, start in enumerate(range(0, deals, chunk)):
        stop = min(start + chunk, deals)
        name = f"c{index:06d}"
        path = root / "chunks" / f"{name}.parquet"
        stamp = _stamp(defn, index, start, stop)
        entry = manifest["chunks"].get(name)
        if entry is not None and path.exists():
            read_verified(path, entry["sha256"], stamp, (stop - start) * players)
            continue
        records, _ = play_deal_records(seats, start=start, stop=stop, seed=seed, rules=rules)
        manifest["chunks"][name] = write_chunk(path, records_table(records), stamp)
        _save_manifest(root, manifest)
    _save_manifest(root, manifest)
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
    for index, start in enumerate(range(0, defn["deals"], defn["chunk"])):
        stop = min(start + defn["chunk"], defn["deals"])
        name = f"c{index:06d}"
        entry = manifest["chunks"].get(name)
        path = root / "chunks" / f"{name}.parquet"
        if entry is None:
            raise StoreError(f"{root} is incomplete: chunk {name} was never stored; run the "
                             f"same simulate --out command again to finish it")
        table = read_verified(path, entry["sha256"], _stamp(defn, index, start, stop),
                              (stop - start) * players)
        parts.append(records_from(path, table, RAMI_RECORD_DTYPE))
    return np.concatenate(parts)
