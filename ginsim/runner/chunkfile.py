"""One chunk as one Parquet file: per-hand records or sparse aggregate tables.

Schemas come from the dtypes (:data:`~ginsim.simulator.machine.records.RECORD_DTYPE` and the
table specs and key types in :mod:`ginsim.runner.aggregate`), never from a hand-written column list.
Each file carries a stamp in the Parquet key-value metadata: the whole definition of
its job (seed, strategies, rules, hand range, chunk size, record layout, version) and
its place (job, chunk, hands), so a file from another run, or a manifest edited without
its chunks, is caught and the disagreeing field named. Files are written with Parquet
page checksums; the SHA-256 of the whole file goes into the manifest when the chunk is
committed and is checked (with the page checksums and the stamp) on every read, from
the same bytes that are parsed. Writes go to a temporary name in the same directory,
are fsynced, then :func:`os.replace`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..game.inputs.files import FileDataError, parse_json, read_bounded
from .aggregate import KEY_DTYPES, KEY_FIELDS, MOMENT_COLUMNS, TABLES, Layout, SparseTables
from .lock import StoreError

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
        dtype = KEY_DTYPES[field]
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


def write_chunk(path: Path, table: pa.Table, stamp: dict[str, Any]) -> dict[str, Any]:
    """Write ``table`` to ``path`` atomically, stamped with ``stamp``, with Parquet page
    checksums; returns the file's ``sha256`` and ``bytes`` for the manifest.

    Any OSError (a full disk, a read-only directory) becomes a one-line StoreError; the
    half-written temporary file is removed and nothing already stored is touched.
    """
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(stamp, sort_keys=True).encode()
    tmp = temp_path(path)
    try:
        pq.write_table(table.replace_schema_metadata(meta), tmp, write_page_checksum=True)
        data = tmp.read_bytes()
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except (OSError, pa.ArrowException) as exc:
        raise StoreError(f"could not write {path}: {_short(exc)}; the chunks stored before "
                         f"it are intact: fix that (free space, write permission) and run "
                         f"the same command again to resume") from None
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def read_stamp(path: Path) -> dict[str, Any] | None:
    """The stamp in a chunk file's footer (None if it has none); StoreError naming
    ``path`` if it is not a readable Parquet file."""
    try:
        meta = pq.read_metadata(path)
    except Exception as exc:  # noqa: BLE001 (a damaged footer can fail in many ways)
        raise StoreError(f"{path} is not a readable Parquet file ({_short(exc)}); move it out "
                         f"of the store or delete it, then run again (nothing was changed)"
                         ) from None
    return _stamp_of((meta.metadata or {}).get(META_KEY))


#: A stamp nests 3 deep (the record columns, the tables' keys); deeper is not a stamp.
MAX_STAMP_DEPTH = 8


def _stamp_of(raw: bytes | None) -> dict[str, Any] | None:
    """The stamp in a footer's raw bytes, or None if they are not one (checked for
    nesting before parsing, like every file from a stranger)."""
    try:
        found = parse_json(raw, "stamp", MAX_STAMP_DEPTH) if raw is not None else None
    except FileDataError:
        return None
    return found if isinstance(found, dict) else None


#: Stamp fields in the order a disagreement is reported, with the words for each.
STAMP_FIELDS: tuple[tuple[str, str], ...] = (
    ("seed", "seed"), ("a", "strategy a"), ("b", "strategy b"), ("rules", "rules"),
    ("duplicate", "duplicate deals"), ("job_start", "first hand"),
    ("job_stop", "hand range end"), ("records", "records"), ("chunk_hands", "chunk size"),
    ("record_columns", "record columns"), ("tables", "table layout"),
    ("moment_columns", "moment columns"), ("ginsim_version", "ginsim version"),
    ("job", "job"), ("chunk", "chunk"), ("start", "first hand of the chunk"),
    ("stop", "end of the chunk"), ("kind", "kind"), ("run", "run id"),
)


def stamp_disagreement(expected: dict[str, Any], found: dict[str, Any], name: str) -> str:
    """'manifest says seed 8; chunk j000-c000003 was played with seed 7' for the first
    field where ``found`` (the chunk's stamp) differs from ``expected`` (the manifest)."""
    for key, words in STAMP_FIELDS:
        want, got = expected.get(key), found.get(key)
        if want == got:
            continue
        if isinstance(want, dict) and isinstance(got, dict):  # rules, tables: name the field
            for sub in sorted(set(want) | set(got)):
                if want.get(sub) != got.get(sub):
                    words, want, got = f"{key}.{_show(sub)}", want.get(sub), got.get(sub)
                    break
        elif isinstance(want, list) and isinstance(got, list):  # columns: the first change
            for w, g in zip(want, got, strict=False):
                if w != g:
                    words, want, got = words[:-1] if words.endswith("s") else words, w, g
                    break
            else:
                want, got = f"{len(want)} entries", f"{len(got)} entries"
        return (f"manifest says {words} {_show(want)}; chunk {name} was played with "
                f"{words} {_show(got)}")
    return f"chunk {name} carries a stamp the manifest does not describe"


def check_stamp(path: Path, found: dict[str, Any] | None, expected: dict[str, Any]) -> None:
    """StoreError naming ``path`` and the disagreeing field unless ``found`` (the file's
    stamp) equals ``expected`` (what the manifest says the chunk is)."""
    if found == expected:
        return
    name = path.name.removesuffix(".parquet")
    why = ("it has no ginsim chunk stamp" if found is None
           else stamp_disagreement(expected, found, name))
    raise StoreError(f"{path} does not belong to this store: {why}; restore the manifest or "
                     f"move the chunk out of the store, then run again (nothing was changed)")


def arrow_owned(data: bytes) -> pa.Buffer:
    """``data`` copied into memory Arrow allocated. Arrow's I/O threads may drop the last
    reference to what they read after the read returns; a buffer over a Python object
    then needs the GIL in that thread, and at interpreter exit that thread ends inside a
    destructor: ``terminate called without an active exception`` (issue 43). Freeing
    Arrow's own memory needs no GIL."""
    sink = pa.BufferOutputStream()
    sink.write(data)
    return sink.getvalue()


#: The most bytes a chunk file whose size the manifest does not record is read up to.
MAX_CHUNK_BYTES = 2**34


def read_verified(path: Path, sha256: str, stamp: dict[str, Any], rows: int | None,
                  size: int | None = None) -> pa.Table:
    """The table in ``path`` after checking its SHA-256 against the manifest's record,
    its page checksums, its stamp and (records) its row count; StoreError names the file.
    A file that is not regular, or larger than the recorded ``size``, is not read."""
    try:
        data = read_bounded(path, MAX_CHUNK_BYTES if size is None else size, "chunk file")
    except FileDataError as exc:
        raise StoreError(f"{_short(exc)}; delete it and run the same command again to "
                         f"recompute that chunk (nothing was changed)") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise StoreError(f"{path} is damaged: its SHA-256 is {digest[:16]}..., the manifest "
                         f"recorded {str(sha256)[:16]}... when the chunk was stored; delete "
                         f"it and run the same command again to recompute that chunk "
                         f"(nothing was changed)")
    try:
        table = pq.read_table(pa.BufferReader(arrow_owned(data)),
                              page_checksum_verification=True)
    except Exception as exc:  # noqa: BLE001 (its checksum matched: a foreign writer's bug)
        raise StoreError(f"{path} is not a readable Parquet file ({_short(exc)}); delete it "
                         f"and run the same command again to recompute that chunk") from None
    check_stamp(path, _stamp_of((table.schema.metadata or {}).get(META_KEY)), stamp)
    if rows is not None and table.num_rows != rows:
        raise StoreError(f"{path} holds {table.num_rows} rows, expected {rows}; delete it and "
                         f"run again to recompute that chunk (nothing was changed)")
    return table


def records_from(path: Path, table: pa.Table, dtype: np.dtype) -> np.ndarray:
    """The record array of a records chunk's (verified) table."""
    missing = [n for n in dtype.names if n not in table.column_names]
    if missing:
        raise StoreError(f"{path} lacks record columns {', '.join(missing)}; delete it and "
                         f"run again to recompute that chunk")
    out = np.empty(table.num_rows, dtype=dtype)
    try:
        for name in dtype.names:
            out[name] = table.column(name).to_numpy()
    except (TypeError, ValueError, pa.ArrowException) as exc:
        raise StoreError(f"{path} has a record column of the wrong type ({_short(exc)}); "
                         f"delete it and run again to recompute that chunk") from None
    return out


def tables_from(path: Path, table: pa.Table, layout: Layout) -> SparseTables:
    """The sparse aggregate tables of a tables chunk's (verified) table."""
    try:
        kinds = np.asarray(table.column("table").to_pylist(), dtype=object)
        index, rows = [], []
        acc = np.stack([table.column(c).to_numpy() for c in MOMENT_COLUMNS], axis=1)
        for spec in TABLES:
            sel = kinds == spec.name
            keys = {k: table.column(k).filter(pa.array(sel)).to_numpy() for k in spec.keys}
            index.append(layout.encode(spec.name, keys))
            rows.append(acc[sel])
    except (KeyError, TypeError, ValueError, pa.ArrowException) as exc:
        raise StoreError(f"{path} is not a ginsim tables chunk ({_short(exc)}); delete it and "
                         f"run again to recompute that chunk") from None
    idx = np.concatenate(index)
    order = np.argsort(idx, kind="stable")
    return SparseTables(idx[order], np.concatenate(rows)[order].astype(np.int64))


def _show(value: Any) -> str:
    text = " ".join(map(str, value)) if isinstance(value, list) else str(value)
    text = " ".join(text.split())  # one line, whatever a damaged manifest holds
    return text if len(text) <= 60 else text[:57] + "..."


def _short(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
