"""A result store's manifest: the run definition a resume must match, and the reader
that treats ``manifest.json`` as data from a stranger.

The manifest is read only if it is a regular file of at most :data:`MAX_MANIFEST_BYTES`
(a FIFO is not waited on, a link to ``/dev/zero`` or a 4 GB file not read), its JSON
nesting is checked before it is parsed, a repeated key is refused, and every key's value
is checked for its type and range (:func:`check_manifest_schema`; the chunk entries are
checked against the run's plan by the store). The run definition includes the SHA-256 of
every chart file the strategies read (``inputs``), so a resume after such a file changed
is refused, naming it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from .._version import __version__
from ..game.inputs.files import FileDataError, parse_json, read_bounded
from ..game.inputs.specs import brief
from ..simulator.machine.records import RECORD_DTYPE
from ..strategies.charts.knock_charts import chart_file_sha256, spec_chart_files
from .aggregate import MOMENT_COLUMNS, TABLES
from .jobs import Job, plan_chunks
from .lock import StoreError
from .store_files import MANIFEST, MAX_MANIFEST_BYTES, MAX_MANIFEST_DEPTH

FORMAT = "ginsim-store"
FORMAT_VERSION = 2
RECORD_MODES = ("full", "summary")
#: Manifest keys that define a run (hashed into its run id).
DEFINITION_KEYS = ("ginsim_version", "records", "chunk_hands", "jobs", "record_columns",
                   "tables", "moment_columns")
#: Definition keys only some runs have (hashed into the run id when present): ``inputs``,
#: the SHA-256 of every chart file the strategies read, by the ``chart=`` value naming it.
OPTIONAL_DEFINITION_KEYS = ("inputs",)
SHA256 = re.compile(r"[0-9a-f]{64}")
RUN_ID = re.compile(r"[0-9a-f]{16}")
CHUNK_ENTRY_KEYS = frozenset(("job", "index", "start", "stop", "file", "sha256", "bytes",
                              "status"))


def layout_definition() -> dict[str, Any]:
    """This ginsim's record columns and table layout, as the manifest writes them."""
    return {"record_columns": [[n, RECORD_DTYPE[n].str] for n in RECORD_DTYPE.names],
            "tables": {t.name: list(t.keys) for t in TABLES},
            "moment_columns": list(MOMENT_COLUMNS)}


def definition(jobs: list[Job], records: str, chunk_hands: int) -> dict[str, Any]:
    """Everything that fixes a run's results (the part of the manifest a resume must match),
    the content hash of every chart file its strategies read included."""
    defn = {"ginsim_version": __version__, "records": records,
            "chunk_hands": int(chunk_hands), "jobs": [job.to_dict() for job in jobs],
            **layout_definition()}
    inputs = input_hashes(jobs)
    if inputs:
        defn["inputs"] = inputs
    return defn


def input_hashes(jobs: list[Job]) -> dict[str, str]:
    """``{"chart=FILE": sha256}`` for every chart file named by the jobs' strategies."""
    files = dict.fromkeys(f for job in jobs for strategy in (job.a, job.b)
                          for f in spec_chart_files(strategy.spec))
    return {f"chart={f}": chart_file_sha256(f) for f in files}


def definition_of(manifest: dict[str, Any]) -> dict[str, Any]:
    """The run definition part of a manifest (what its run id hashes)."""
    return {k: manifest[k] for k in (*DEFINITION_KEYS, *OPTIONAL_DEFINITION_KEYS)
            if k in manifest}


def run_id(defn: dict[str, Any]) -> str:
    """A short fingerprint of a run definition."""
    return hashlib.sha256(json.dumps(defn, sort_keys=True).encode()).hexdigest()[:16]


def explain_mismatch(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Why a stored run definition ``old`` is not ``new``, in words (the first difference:
    version, mode, chunk size, a job's field, a changed input)."""
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
                return f"job {j} has {label} {brief(o.get(key))}, not {brief(n[key])}"
    old_in, new_in = old.get("inputs") or {}, new.get("inputs") or {}
    for name in dict.fromkeys([*new_in, *old_in]):
        if name not in old_in:
            return (f"it was stored without a record of the input {name} (another ginsim "
                    f"version?)")
        if old_in.get(name) != new_in.get(name):
            return (f"its input {name} has changed since the run was stored (SHA-256 "
                    f"{str(old_in[name])[:12]}... then, {str(new_in.get(name))[:12]}... now): "
                    f"restore that file to resume")
    return "its record columns or table layout differ (another ginsim version?)"


def read_manifest(root: Path) -> dict[str, Any]:
    """The parsed manifest; StoreError naming the file if it is not a ginsim manifest:
    not a regular file, over :data:`MAX_MANIFEST_BYTES`, nested too deep (all checked
    before parsing), a repeated key, or a value of the wrong type or range."""
    path = Path(root) / MANIFEST
    fix = "restore it or use another --out directory (nothing was changed)"
    try:
        data = read_bounded(path, MAX_MANIFEST_BYTES, "the manifest")
    except FileDataError as exc:
        raise StoreError(f"{_one_line(exc, 240)}; {fix}") from None
    try:
        manifest = parse_json(data, "it", MAX_MANIFEST_DEPTH)
    except FileDataError as exc:
        raise StoreError(f"{path} is not a readable ginsim manifest ({_one_line(exc)}); {fix}"
                         ) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise StoreError(f"{path} is not a ginsim manifest (no \"format\": \"{FORMAT}\"); "
                         f"use another --out directory (nothing was changed)")
    if manifest.get("format_version") != FORMAT_VERSION or isinstance(
            manifest.get("format_version"), bool):
        raise StoreError(f"{path} has store format {brief(manifest.get('format_version'))}, "
                         f"this ginsim reads {FORMAT_VERSION}; use the ginsim that wrote it")
    try:
        check_manifest_schema(manifest)
        plan_chunks([Job.from_dict(d) for d in manifest["jobs"]], manifest["chunk_hands"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StoreError(f"{path} is damaged ({type(exc).__name__}: {_one_line(exc)}); {fix}"
                         ) from None
    return manifest


#: Manifest keys and the types their values have (``int`` never admits a bool).
MANIFEST_TYPES: dict[str, type | tuple[type, ...]] = {
    "run_id": str, "ginsim_version": str, "records": str, "chunk_hands": int, "jobs": list,
    "record_columns": list, "tables": dict, "moment_columns": list, "chunks": list,
    "inputs": dict, "created": str, "updated": str, "hands": int, "chunks_total": int,
    "complete": bool, "last_run": dict, "format": str, "format_version": int}
REQUIRED_KEYS = ("run_id", *DEFINITION_KEYS, "chunks")


def check_manifest_schema(manifest: dict[str, Any]) -> None:
    """ValueError naming the first key whose value has the wrong type or range (the
    chunk entries are checked against the run's plan by :func:`_recorded`)."""
    for key in REQUIRED_KEYS:
        if key not in manifest:
            raise KeyError(key)
    for key, value in manifest.items():
        _check_type(key, value)
    for check in VALUE_CHECKS:
        check(manifest)


def _check_type(key: str, value: Any) -> None:
    """ValueError unless ``key`` is a manifest key and ``value`` has its type."""
    want = MANIFEST_TYPES.get(key)
    if want is None:
        raise ValueError(f"unknown key {brief(key, 40)}")
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        raise ValueError(f"{key} must be of type {getattr(want, '__name__', want)}, got "
                         f"{brief(value, 40)}")


def _check_run_id(manifest: dict[str, Any]) -> None:
    if RUN_ID.fullmatch(manifest["run_id"]) is None:
        raise ValueError(f"run_id must be 16 hex digits, got {brief(manifest['run_id'])}")


def _check_records(manifest: dict[str, Any]) -> None:
    if manifest["records"] not in RECORD_MODES:
        raise ValueError(f"records must be full or summary, got {brief(manifest['records'])}")


def _check_lists(manifest: dict[str, Any]) -> None:
    if not manifest["jobs"] or not all(isinstance(j, dict) for j in manifest["jobs"]):
        raise ValueError("jobs must be a non-empty list of objects")
    if not all(isinstance(c, dict) for c in manifest["chunks"]):
        raise ValueError("chunks must be a list of objects")


def _check_inputs(manifest: dict[str, Any]) -> None:
    for name, digest in manifest.get("inputs", {}).items():
        if not isinstance(digest, str) or SHA256.fullmatch(digest) is None:
            raise ValueError(f"inputs[{brief(name, 60)}] must be a SHA-256 in hex")


#: The checks of values a type alone does not settle, in the order they are made.
VALUE_CHECKS = (_check_run_id, _check_records, _check_lists, _check_inputs)


def _one_line(exc: BaseException, limit: int = 160) -> str:
    text = " ".join(str(exc).split())
    return text[:limit] if text else type(exc).__name__
