"""One chunk as one Parquet file: per-hand records or sparse aggregate tables.

Schemas come from the dtypes (:data:`~ginsim.simulator.records.RECORD_DTYPE` and the
table specs in :mod:`ginsim.simulator.aggregate`), never from a hand-written column list.
Each file carries its identity (run id, job, chunk, hand range, kind) in the Parquet
key-value metadata, so a file from another run or a damaged one is caught by its path.
Writes go to a temporary name in the same directory, then :func:`os.replace`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .aggregate import KEY_FIELDS, MOMENT_COLUMNS, TABLES, Layout, SparseTables
from .lock import StoreError
from .records import RECORD_DTYPE

META_KEY = b"ginsim.chunk"
TMP_SUFFIX = ".tmp"


def temp_path(path: Path) -> Path:
    """The temporary name a chunk is written under before the rename."""
    return path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")


def is_temp(name: str) -> bool:
    """Whether a file name is one of ours left half-written by a killed run."""
    return name.startswith(".") and name.endswith(TMP_SUFFIX)


def records_table(records: np.ndarray) -> pa.Table:
    """Per-hand records as an Arrow table, one column per dtype field."""
    return pa.table({name: np.ascontiguousarray(records[name])
                     for name in records.dtype.names})


def tables_table(sparse: SparseTables, layout: Layout) -> pa.Table:
    """Sparse aggregate tables as one long Arrow table: a ``table`` column, every key
    field (null where a table has no such key) and the moment columns."""
    parts = layout.decode(sparse)
    n = sum(len(acc) for _, _, acc in parts)
    names = np.concatenate([np.full(len(acc), spec.name, dtype=object)
                            for spec, _, acc in parts]) if n else np.zeros(0, dtype=object)
    columns: dict[str, pa.Array] = {
        "table": pa.array(names, type=pa.string()).dictionary_encode()}
    for field in KEY_FIELDS:
        dtype = RECORD_DTYPE[field]
        values = np.zeros(n, dtype=dtype)
        mask = np.ones(n, dtype=bool)
        at = 0
        for _, keys, acc in parts:
            if field in keys:
                values[at:at + len(acc)] = keys[field]
                mask[at:at + len(acc)] = False
            at += len(acc)
        columns[field] = pa.array(values, mask=mask, type=pa.from_numpy_dtype(dtype))
    stacked = np.concatenate([acc for _, _, acc in parts]) if n else np.zeros(
        (0, len(MOMENT_COLUMNS)), dtype=np.int64)
    for i, name in enumerate(MOMENT_COLUMNS):
        columns[name] = pa.array(np.ascontiguousarray(stacked[:, i]), type=pa.int64())
    return pa.table(columns)


def write_chunk(path: Path, table: pa.Table, identity: dict[str, Any]) -> None:
    """Write ``table`` to ``path`` atomically, stamped with ``identity``."""
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(identity, sort_keys=True).encode()
    tmp = temp_path(path)
    try:
        pq.write_table(table.replace_schema_metadata(meta), tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def check_chunk(path: Path, identity: dict[str, Any], rows: int | None) -> None:
    """StoreError naming ``path`` unless it is a readable chunk with this identity."""
    try:
        meta = pq.read_metadata(path)
    except (OSError, pa.ArrowException) as exc:
        raise StoreError(f"{path} is not a readable Parquet file ({_short(exc)}); move it out "
                         f"of the store or delete it, then run again (nothing was changed)"
                         ) from None
    raw = (meta.metadata or {}).get(META_KEY)
    try:
        found = json.loads(raw) if raw is not None else None
    except ValueError:
        found = None
    if found != identity:
        why = "has no ginsim chunk stamp" if found is None else (
            f"is stamped {_describe(found)}, expected {_describe(identity)}")
        raise StoreError(f"{path} does not belong to this store: it {why}; move it out of the "
                         f"store or delete it, then run again (nothing was changed)")
    if rows is not None and meta.num_rows != rows:
        raise StoreError(f"{path} holds {meta.num_rows} rows, expected {rows}; delete it and "
                         f"run again to recompute that chunk (nothing was changed)")


def read_records(path: Path, dtype: np.dtype) -> np.ndarray:
    """The record array stored in a records chunk file."""
    table = _read(path)
    missing = [n for n in dtype.names if n not in table.column_names]
    if missing:
        raise StoreError(f"{path} lacks record columns {', '.join(missing)}; delete it and "
                         f"run again to recompute that chunk")
    out = np.empty(table.num_rows, dtype=dtype)
    for name in dtype.names:
        out[name] = table.column(name).to_numpy()
    return out


def read_tables(path: Path, layout: Layout) -> SparseTables:
    """The sparse aggregate tables stored in a tables chunk file."""
    table = _read(path)
    try:
        kinds = np.asarray(table.column("table").to_pylist(), dtype=object)
        index, rows = [], []
        acc = np.stack([table.column(c).to_numpy() for c in MOMENT_COLUMNS], axis=1)
        for spec in TABLES:
            sel = kinds == spec.name
            keys = {k: table.column(k).filter(pa.array(sel)).to_numpy() for k in spec.keys}
            index.append(layout.encode(spec.name, keys))
            rows.append(acc[sel])
    except (KeyError, ValueError, pa.ArrowException) as exc:
        raise StoreError(f"{path} is not a ginsim tables chunk ({_short(exc)}); delete it and "
                         f"run again to recompute that chunk") from None
    idx = np.concatenate(index)
    order = np.argsort(idx, kind="stable")
    return SparseTables(idx[order], np.concatenate(rows)[order].astype(np.int64))


def _read(path: Path) -> pa.Table:
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise StoreError(f"{path} is not a readable Parquet file ({_short(exc)}); move it out "
                         f"of the store or delete it, then run again") from None


def _describe(identity: dict[str, Any]) -> str:
    return (f"run {identity.get('run')} job {identity.get('job')} chunk "
            f"{identity.get('chunk')} hands {identity.get('start')}..{identity.get('stop')}")


def _short(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
