"""Knock charts as data: a knock probability per cell (stock bucket x deadwood x the
opponent's pile takes), read from and written to JSON or CSV, and found by name.

A chart plugs into any base strategy's card play as ``chart=NAME_OR_FILE`` (e.g.
``memory2:chart=equilibrium``); its cells fill the ``grid`` slots of the parameter
vector (layout in :mod:`ginsim.strategies.params`). Names are the built-in charts below
and the JSON files shipped in ``ginsim/strategies/chart_data/``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ...game.inputs.files import decode_text, is_regular, parse_json, read_bounded
from ...game.inputs.specs import brief, spec_values
from ...game.rulebook.rules_presets import RULES_PRESETS
from ..grid_nb import bucket_labels, bucket_range
from ..params import (
    GRID_BUCKETS,
    GRID_DEADWOOD,
    GRID_TAKEN,
    NESTED,
)

CHART_DIR = Path(__file__).parent.parent / "chart_data"
CSV_FIELDS = ("stock_low", "stock_high", "deadwood", "opp_taken", "p_knock")
MAX_CHART_BYTES = 1_000_000
#: The chart families by name, each with the card play its shipped charts are made for
#: (:mod:`ginsim.strategies.charts.equilibria`). A strategy that knocks by a family's name plays
#: the family's chart for the rules it plays under
#: (:meth:`ginsim.strategies.presets.Strategy.vector_for`); a name with a rules suffix
#: (``equilibrium_expert_oklahoma``) is that one chart, and ``_modern``
#: (``equilibrium_expert_modern``) the family's modern chart whatever the rules.
CHART_FAMILIES = {"equilibrium": "memory2", "equilibrium_expert": "expert",
                  "equilibrium_learned": "learned"}
MODERN_SUFFIX = "_modern"
SHAPE = (GRID_BUCKETS, GRID_DEADWOOD, GRID_TAKEN)


@dataclass(frozen=True)
class KnockChart:
    """Knock probabilities ``p[bucket, deadwood - 1, opponent's pile takes (0/1/2+)]``
    plus free-form provenance (``info``: command, seed, exploitability...)."""

    p: np.ndarray
    name: str = "chart"
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        p = np.array(self.p, dtype=np.float64)  # a copy: the caller's array stays writable
        if p.shape != SHAPE:
            raise ValueError(f"a knock chart has {SHAPE} cells (stock buckets x deadwood x "
                             f"opponent's pile takes), got shape {p.shape}")
        if not np.all((p >= 0) & (p <= 1)):
            raise ValueError("knock chart cells are probabilities in 0..1; "
                             f"found {brief(float(p[(p < 0) | (p > 1) | np.isnan(p)][0]))}")
        if not isinstance(self.name, str):
            raise ValueError(f"a knock chart's name is text, got {brief(self.name, 40)}")
        if not isinstance(self.info, dict):
            raise ValueError(f"a knock chart's info is a dict (provenance: command, seed, "
                             f"...), got {brief(self.info, 40)}")
        p.setflags(write=False)
        object.__setattr__(self, "p", p)

    @property
    def grid(self) -> tuple[float, ...]:
        """The cells in parameter-vector order (the ``grid`` parameter)."""
        return tuple(float(v) for v in self.p.reshape(-1))

    @property
    def pure(self) -> bool:
        return bool(np.all((self.p == 0) | (self.p == 1)))

    def to_json(self) -> str:
        """Readable JSON: the cells as ``p_knock[stock bucket][deadwood - 1][takes]``."""
        return json.dumps({"format": "ginsim knock chart", "name": self.name,
                           "stock_buckets": bucket_labels(),
                           "deadwood": list(range(1, GRID_DEADWOOD + 1)),
                           "opp_taken": ["0", "1", "2+"],
                           "p_knock": [[[round(float(v), 6) for v in row] for row in b]
                                       for b in self.p],
                           "info": self.info}, indent=1)

    def to_csv(self) -> str:
        """One row per cell: stock range, deadwood, opponent's pile takes, p_knock."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        for b in range(GRID_BUCKETS):
            low, high = bucket_range(b)
            for d in range(GRID_DEADWOOD):
                for t in range(GRID_TAKEN):
                    writer.writerow((low, high, d + 1, t, f"{self.p[b, d, t]:.6g}"))
        return out.getvalue()

    def save(self, path: str | Path) -> Path:
        """Write JSON or CSV by the file's suffix."""
        path = Path(path)
        text = self.to_csv() if path.suffix.lower() == ".csv" else self.to_json()
        path.write_text(text)
        return path


def constant_chart(p: float, name: str = "chart") -> KnockChart:
    return KnockChart(np.full(SHAPE, float(p)), name)


def builtin_charts() -> dict[str, KnockChart]:
    """Charts defined in code: ``always`` (knock whenever allowed), ``gin_only``, ``five``
    (knock at 5 or less) and ``pile_wary`` (the textbook advice: knock early unless the opponent
    has taken cards from the pile)."""
    five = np.zeros(SHAPE)
    five[:, :5, :] = 1
    wary = np.zeros(SHAPE)
    wary[:, :, 0] = 1
    return {"always": constant_chart(1, "always"), "gin_only": constant_chart(0, "gin_only"),
            "five": KnockChart(five, "five"), "pile_wary": KnockChart(wary, "pile_wary")}


def shipped_names() -> list[str]:
    return sorted(p.stem for p in CHART_DIR.glob("*.json"))


def shipped_summary() -> str:
    """The shipped charts' names in a line: the base names, and the rules suffixes that
    follow them (``equilibrium_expert`` + ``_oklahoma``), so a refusal stays one short line."""
    names = shipped_names()
    suffixes = sorted({p for p in RULES_PRESETS for n in names if n.endswith("_" + p)} | {
        MODERN_SUFFIX[1:]})
    bases = [n for n in names if not any(n.endswith("_" + p) for p in suffixes)]
    return (f"{', '.join(bases)}, each alone (for the rules played) or followed by a "
            f"rules preset (_{', _'.join(suffixes)})")


JSON_FORMAT = "ginsim knock chart"
#: How deep a chart file's JSON may nest: p_knock is 3 deep in the object; ``info`` is free.
MAX_CHART_DEPTH = 32
MAX_NAME_CHARS = 200
# ASCII only: a Unicode space such as U+001C matches ``\s`` but ``int`` refuses it
_CSV_INT = re.compile(r"\s*\d{1,3}\s*", re.ASCII)
_CSV_NUMBER = re.compile(r"\s*\+?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*", re.ASCII)
_SAVE_HINT = "write it with ginsim equilibrium or KnockChart.save"


def _labels() -> dict[str, list]:
    """The axis labels a chart file carries (and must carry unchanged if it has them)."""
    return {"stock_buckets": bucket_labels(), "deadwood": list(range(1, GRID_DEADWOOD + 1)),
            "opp_taken": ["0", "1", "2+"]}


def _cells(p_knock: Any, where: str) -> np.ndarray:
    """The p_knock nested lists as an array, every cell a number in 0..1 (no bools, no
    text, no NaN); the error names the first bad cell by its indices."""
    out = np.empty(SHAPE)
    shape_error = ValueError(f"{where}: p_knock must be nested lists of {SHAPE} cells "
                             f"(stock buckets x deadwood x opponent's pile takes)")
    if not isinstance(p_knock, list) or len(p_knock) != SHAPE[0]:
        raise shape_error
    for b, bucket in enumerate(p_knock):
        if not isinstance(bucket, list) or len(bucket) != SHAPE[1]:
            raise shape_error
        for d, row in enumerate(bucket):
            if not isinstance(row, list) or len(row) != SHAPE[2]:
                raise shape_error
            for t, cell in enumerate(row):
                if (isinstance(cell, bool) or not isinstance(cell, (int, float))
                        or not 0 <= cell <= 1):
                    raise ValueError(f"{where}: p_knock[{b}][{d}][{t}] is {brief(cell, 30)}; "
                                     f"cells are knock probabilities, numbers in 0..1")
                out[b, d, t] = cell
    return out


def chart_from_dict(data: Any, where: str) -> KnockChart:
    """A chart from parsed JSON (``p_knock`` nested lists), checked against the file
    schema (exact shape, numbers in 0..1, ``info`` an object, the axis labels if given;
    other keys are free provenance); one-line errors naming ``where``."""
    if not isinstance(data, dict) or "p_knock" not in data:
        raise ValueError(f"{where} is not a knock chart: expected a JSON object with "
                         f"p_knock[stock bucket][deadwood - 1][opponent's pile takes]")
    if "format" in data and data["format"] != JSON_FORMAT:
        raise ValueError(f"{where}: format is {brief(data['format'], 40)}, expected "
                         f"{JSON_FORMAT!r}")
    for key, labels in _labels().items():
        if key in data and data[key] != labels:
            raise ValueError(f"{where}: {key} is {brief(data[key], 40)}, this ginsim's charts "
                             f"have {key} {brief(labels, 60)}")
    name = data.get("name", Path(where).stem)
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
        raise ValueError(f"{where}: name must be text of at most {MAX_NAME_CHARS} characters, "
                         f"got {brief(name, 40)}")
    info = data.get("info", {})
    if not isinstance(info, dict):
        raise ValueError(f"{where}: info must be a JSON object (provenance: command, seed, "
                         f"...), got {brief(info, 40)}")
    p = _cells(data["p_knock"], where)
    try:
        return KnockChart(p, name, info)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def _csv_cell(row: dict, where: str, line: int) -> tuple[tuple[int, int, int], float]:
    """``((bucket, deadwood - 1, takes), p)`` of one CSV row; ValueError naming the line."""
    bad = ValueError(f"{where} line {line}: bad cell {brief(dict(row))}; stock_low-stock_high "
                     f"is a bucket's range ({', '.join(bucket_labels())}), deadwood "
                     f"1..{GRID_DEADWOOD}, opp_taken 0..{GRID_TAKEN - 1}, p_knock a number "
                     f"in 0..1")
    if None in row or any(row.get(f) is None for f in CSV_FIELDS):
        raise bad  # too many or too few fields on the line
    ints = [row[f] for f in CSV_FIELDS[:4]]
    if not all(_CSV_INT.fullmatch(v) for v in ints) or not _CSV_NUMBER.fullmatch(
            row["p_knock"]):
        raise bad
    low, high, d, t = map(int, ints)
    value = float(row["p_knock"])
    ranges = {bucket_range(b): b for b in range(GRID_BUCKETS)}
    if (low, high) not in ranges or not (1 <= d <= GRID_DEADWOOD and 0 <= t < GRID_TAKEN
                                         and 0 <= value <= 1):
        raise bad
    return (ranges[low, high], d - 1, t), value


def chart_from_csv(text: str, where: str) -> KnockChart:
    """A chart from CSV rows (``CSV_FIELDS``, each once in the header); every cell must
    be given exactly once, with its bucket's exact stock range."""
    try:
        reader = csv.DictReader(io.StringIO(text))
        header = reader.fieldnames or []
        if sorted(header) != sorted(CSV_FIELDS):
            raise ValueError(f"{where} is not a knock chart CSV: expected the columns "
                             f"{', '.join(CSV_FIELDS)} (each once), got "
                             f"{brief(', '.join(map(str, header)), 80)}")
        p = np.full(SHAPE, np.nan)
        lines: dict[tuple[int, int, int], int] = {}
        for row in reader:
            line = reader.line_num
            cell, value = _csv_cell(row, where, line)
            if cell in lines:
                raise ValueError(f"{where} line {line} gives the cell of line {lines[cell]} "
                                 f"again (stock {'-'.join(map(str, bucket_range(cell[0])))}, "
                                 f"deadwood {cell[1] + 1}, opp_taken {cell[2]}); give each "
                                 f"cell once")
            lines[cell] = line
            p[cell] = value
    except csv.Error as exc:
        raise ValueError(f"{where} is not readable CSV ({' '.join(str(exc).split())[:80]})"
                         ) from None
    if np.isnan(p).any():
        raise ValueError(f"{where}: {int(np.isnan(p).sum())} of {p.size} cells missing; give "
                         f"one row per stock bucket x deadwood x opp_taken")
    try:
        return KnockChart(p, Path(where).stem)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def read_chart_file(path: str | Path) -> KnockChart:
    """Read a chart file (``.csv`` as CSV, anything else as JSON): a regular file of at
    most :data:`MAX_CHART_BYTES`, checked against the schema; one-line ValueErrors."""
    path = Path(path)
    data = read_bounded(path, MAX_CHART_BYTES, "knock chart file")
    if path.suffix.lower() == ".csv":
        return chart_from_csv(decode_text(data, str(path)), str(path))
    return chart_from_dict(parse_json(data, f"knock chart file {path}", MAX_CHART_DEPTH,
                                      _SAVE_HINT), str(path))


def chart_file_sha256(path: str | Path) -> str:
    """SHA-256 of a chart file's bytes (read as :func:`read_chart_file` reads them), so a
    stored run can tell that the file it was played with has changed."""
    return hashlib.sha256(read_bounded(Path(path), MAX_CHART_BYTES, "knock chart file")
                          ).hexdigest()


def is_numbers(text: str) -> bool:
    """Whether ``text`` is numbers separated by '/' (a bit chart or given values, not a
    chart or model name)."""
    try:
        [float(t) for t in text.split("/")]
    except ValueError:
        return False
    return True


def chart_file(name_or_path: str) -> Path | None:
    """The user's file a ``chart=`` value reads (None for a built-in or shipped chart,
    or a bit chart such as ``1921/1/1/1``)."""
    text = str(name_or_path).strip()
    if text in builtin_charts() or is_numbers(text) or (
            "/" not in text and is_regular(CHART_DIR / f"{text}.json")):
        return None
    return Path(text)


def spec_chart_files(spec: str) -> list[str]:
    """The ``chart=`` values of a strategy spec (nested ``rollout``/``model``.. specs
    included) that name the user's files, as written, in order and once each."""
    found: list[str] = []
    for key, value in spec_values(str(spec).replace(";", ","))[1].items():
        if key in NESTED and ":" in value:
            found += spec_chart_files(value)
        elif key == "chart" and chart_file(value) is not None:
            found.append(value)
    return list(dict.fromkeys(found))


def shipped_chart(name: str) -> KnockChart:
    """A chart shipped with the package, read once per version of its file (a script that
    remakes charts sees the new one)."""
    stat = (CHART_DIR / f"{name}.json").stat()
    return _shipped_chart(name, stat.st_mtime_ns, stat.st_size)


@cache
def _shipped_chart(name: str, mtime_ns: int, size: int) -> KnockChart:
    return read_chart_file(CHART_DIR / f"{name}.json")


def load_chart(name_or_path: str) -> KnockChart:
    """A built-in chart, a shipped one (``equilibrium``), or a JSON/CSV file."""
    text = str(name_or_path).strip()
    builtin = builtin_charts()
    if text in builtin:
        return builtin[text]
    if "/" not in text and is_regular(CHART_DIR / f"{text}.json"):
        return shipped_chart(text)
    modern = text.removesuffix(MODERN_SUFFIX)
    if modern != text and modern in CHART_FAMILIES:
        return shipped_chart(modern)  # a family's modern chart, pinned whatever the rules
    path = Path(text)
    if path.exists():
        return read_chart_file(path)
    raise ValueError(f"unknown knock chart {brief(text)}: give a file (.json or .csv), one of "
                     f"{', '.join(builtin)}, or a shipped chart: {shipped_summary()}")
