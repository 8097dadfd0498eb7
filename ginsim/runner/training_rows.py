"""The teacher's training rows on disk: a folder that scripts/make_training_data.py fills
with ``draw_<k>.parquet`` and ``discard_<k>.parquet`` (chunk ``k``) and lists in
``manifest.json``, and scripts/train_card_play.py reads.

Both scripts read it as data from a stranger, as the result stores read theirs: the
folder is new, empty or a folder of rows (:func:`~ginsim.runner.store_files.check_place`),
the manifest a bounded regular file whose nesting is checked before it is parsed and
whose keys are checked one by one, and each row file a regular Parquet file holding its
kind's columns as numbers. Every refusal is one ValueError line naming the file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..game.inputs.checks import check_path, is_int, is_number
from ..game.inputs.files import FileDataError, file_kind, parse_json, read_bounded
from ..game.rng_nb import MAX_SEED
from ..simulator.search.lessons_nb import DISCARD_META, DRAW_META
from ..strategies.learned.card_features_nb import DISCARD_FEATURES, DRAW_FEATURES
from .store_files import MANIFEST, MAX_MANIFEST_BYTES, MAX_MANIFEST_DEPTH, check_place

#: What fixes a folder's rows: a manifest made with other settings is not resumed.
SETTINGS = ("teacher", "opponents", "seed", "region", "chunk_size")
#: Each chunk's manifest entry: its keys, and which hold whole numbers (the rest: the
#: opponent's spec, and real numbers).
CHUNK_KEYS = frozenset(("first_hand", "hands", "opponent", "draws", "discard_decisions",
                        "discard_rows", "seconds", "teacher_points_per_hand"))
CHUNK_COUNTS = ("first_hand", "hands", "draws", "discard_decisions", "discard_rows")
#: At most this many chunks to a folder (its manifest grows about 250 bytes a chunk).
MAX_ROW_CHUNKS = 1_000_000
#: A row file is read only if it is a regular file of at most this size (a chunk of
#: 100,000 hands, the teacher's most, makes about 1 GB of discard rows).
MAX_ROW_FILE_BYTES = 4 * 2**30
_HINT = "restore it, or give another folder"


def row_columns(kind: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The columns of a ``kind`` row file: the features (finite numbers), the decision's
    whole numbers (hand, choice, opponent, ...) and the teacher's rollout means (numbers,
    NaN where it did not search)."""
    if kind == "draw":
        return DRAW_FEATURES, (*DRAW_META, "opponent"), ("value_take", "value_stock")
    return DISCARD_FEATURES, (*DISCARD_META, "opponent"), ("value", "value_knock")


def row_file(folder: Path, kind: str, k: int) -> Path:
    """Where chunk ``k``'s ``kind`` rows live."""
    return folder / f"{kind}_{k:05d}.parquet"


def check_rows_place(out: Any) -> Path:
    """``--out`` of make_training_data: a new or empty folder, or a folder of rows (one
    with a manifest); one-line ValueError otherwise (a file, a folder of other things)."""
    root = Path(check_path(out, "--out", "a folder path"))
    check_place(root, "folder of training rows")
    return root


def read_rows_manifest(folder: Path) -> dict[str, Any] | None:
    """A rows folder's manifest, checked key by key; None when it has none."""
    path = folder / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    manifest = parse_json(read_bounded(path, MAX_MANIFEST_BYTES, "training-rows manifest"),
                          str(path), MAX_MANIFEST_DEPTH, _HINT)
    problem = manifest_problem(manifest)
    if problem:
        raise FileDataError(f"{path} is not a training-rows manifest: {problem}; {_HINT}")
    return manifest


def manifest_problem(manifest: Any) -> str:
    """What is wrong with a parsed rows manifest ("" when nothing)."""
    if not isinstance(manifest, dict):
        return "it must be a JSON object"
    missing = [key for key in (*SETTINGS, "chunks") if key not in manifest]
    if missing or not set(manifest) <= {*SETTINGS, "chunks", "command"}:
        return f"its keys must be {', '.join((*SETTINGS, 'chunks'))} and command"
    if not isinstance(manifest["teacher"], str) or not isinstance(manifest["region"], str) \
            or not isinstance(manifest.get("command", ""), str):
        return "teacher, region and command must be text"
    if not isinstance(manifest["opponents"], list) or not manifest["opponents"] or not all(
            isinstance(spec, str) for spec in manifest["opponents"]):
        return "opponents must be a list of strategy specs"
    if not is_int(manifest["seed"]) or not 0 <= manifest["seed"] <= MAX_SEED:
        return "seed must be a whole number in 0..2**64-1"
    if not is_int(manifest["chunk_size"]) or manifest["chunk_size"] < 1:
        return "chunk_size must be a whole number of at least 1"
    return _chunks_problem(manifest["chunks"])


def _chunks_problem(chunks: Any) -> str:
    if not isinstance(chunks, dict) or len(chunks) > MAX_ROW_CHUNKS:
        return f"chunks must be an object of at most {MAX_ROW_CHUNKS:,} entries"
    for name, entry in chunks.items():
        if not (name.isascii() and name.isdigit()) or not isinstance(entry, dict) \
                or set(entry) != CHUNK_KEYS or not isinstance(entry["opponent"], str) \
                or not all(is_int(entry[key]) and entry[key] >= 0 for key in CHUNK_COUNTS) \
                or not all(is_number(entry[key])
                           for key in ("seconds", "teacher_points_per_hand")):
            return (f"chunk {name[:20]!r} must be a chunk number with "
                    f"{', '.join(sorted(CHUNK_KEYS))} (whole numbers but for the opponent, "
                    f"seconds and points)")
    return ""


def read_row_file(path: Path, kind: str):
    """The rows of one ``kind`` file as an Arrow table, checked: a regular Parquet file
    within :data:`MAX_ROW_FILE_BYTES` whose columns are its kind's numbers, the features
    finite; one-line ValueError naming the file otherwise."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        info = os.stat(path)
    except OSError as exc:
        raise FileDataError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not Path(path).is_file():
        raise FileDataError(f"{path} is {file_kind(info.st_mode)}, not a Parquet file of rows")
    if info.st_size > MAX_ROW_FILE_BYTES:
        raise FileDataError(f"{path} is {info.st_size:,} bytes, over the "
                            f"{MAX_ROW_FILE_BYTES:,} a file of rows may hold")
    features, whole, values = row_columns(kind)
    try:
        names = pq.read_schema(path).names
        missing = [c for c in (*features, *whole, *values) if c not in names]
        if missing:
            raise FileDataError(f"{path} lacks the column(s) {', '.join(missing[:4])}: it is "
                                f"not a file of {kind} rows; make it again with "
                                f"scripts/make_training_data.py")
        table = pq.read_table(path, columns=[*features, *whole, *values])
    except (pa.ArrowException, OSError) as exc:
        text = " ".join(str(exc).split())[:160]
        raise FileDataError(f"{path} is not a readable Parquet file ({text}); make it "
                            f"again with scripts/make_training_data.py") from None
    for name in (*features, *whole, *values):
        column = table.column(name)
        whole_ok = pa.types.is_integer(column.type)
        if not whole_ok and (name in whole or not pa.types.is_floating(column.type)):
            raise FileDataError(f"{path}: column {name} holds {column.type}, not "
                                f"{'whole numbers' if name in whole else 'numbers'}")
        if column.null_count and name not in values:
            raise FileDataError(f"{path}: column {name} has {column.null_count:,} empty "
                                f"value(s); make the file again")
        if name in features and not whole_ok and not bool(np.isfinite(
                column.to_numpy(zero_copy_only=False)).all()):
            raise FileDataError(f"{path}: column {name} holds a value that is not a finite "
                                f"number; make the file again")
    return table

