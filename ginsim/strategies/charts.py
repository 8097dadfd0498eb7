"""Knock charts as data: a knock probability per cell (stock bucket x deadwood x the
opponent's pile takes), read from and written to JSON or CSV, and found by name.

A chart plugs into any base strategy's card play as ``chart=NAME_OR_FILE`` (e.g.
``memory2:chart=equilibrium``); its cells fill the ``grid`` slots of the parameter
vector (layout in :mod:`ginsim.strategies.params`). Names are the built-in charts below
and the JSON files shipped in ``ginsim/strategies/chart_data/``.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..game.rules import brief
from .params import (
    GRID_BUCKET_WIDTH,
    GRID_BUCKETS,
    GRID_DEADWOOD,
    GRID_TAKEN,
)

CHART_DIR = Path(__file__).parent / "chart_data"
CSV_FIELDS = ("stock_low", "stock_high", "deadwood", "opp_taken", "p_knock")
MAX_CHART_BYTES = 1_000_000
SHAPE = (GRID_BUCKETS, GRID_DEADWOOD, GRID_TAKEN)


def bucket_range(bucket: int) -> tuple[int, int]:
    """Stock-left range ``(low, high)`` of grid bucket ``bucket`` (0 = deepest stock)."""
    low = (GRID_BUCKETS - 1 - bucket) * GRID_BUCKET_WIDTH
    high = 31 if bucket == 0 else low + GRID_BUCKET_WIDTH - 1
    return low, high


def bucket_labels() -> list[str]:
    """``28-31``, ``24-27``, ..., ``0-3``: the stock buckets in play order."""
    return [f"{lo}-{hi}" for lo, hi in map(bucket_range, range(GRID_BUCKETS))]


@dataclass(frozen=True)
class KnockChart:
    """Knock probabilities ``p[bucket, deadwood - 1, opponent's pile takes (0/1/2+)]``
    plus free-form provenance (``info``: command, seed, exploitability...)."""

    p: np.ndarray
    name: str = "chart"
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        p = np.asarray(self.p, dtype=np.float64)
        if p.shape != SHAPE:
            raise ValueError(f"a knock chart has {SHAPE} cells (stock buckets x deadwood x "
                             f"opponent's pile takes), got shape {p.shape}")
        if not np.all((p >= 0) & (p <= 1)):
            raise ValueError("knock chart cells are probabilities in 0..1; "
                             f"found {brief(float(p[(p < 0) | (p > 1) | np.isnan(p)][0]))}")
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


def chart_from_dict(data: Any, where: str) -> KnockChart:
    """A chart from parsed JSON (``p_knock`` nested lists), with a one-line error."""
    if not isinstance(data, dict) or "p_knock" not in data:
        raise ValueError(f"{where} is not a knock chart: expected a JSON object with "
                         f"p_knock[stock bucket][deadwood - 1][opponent's pile takes]")
    try:
        p = np.array(data["p_knock"], dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: p_knock must be nested lists of numbers of shape "
                         f"{SHAPE}") from None
    try:
        return KnockChart(p, str(data.get("name", Path(where).stem)), dict(data.get("info")
                                                                          or {}))
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def chart_from_csv(text: str, where: str) -> KnockChart:
    """A chart from CSV rows (``CSV_FIELDS``); every cell must be given once."""
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows or set(CSV_FIELDS) - set(rows[0]):
        raise ValueError(f"{where} is not a knock chart CSV: expected columns "
                         f"{', '.join(CSV_FIELDS)}")
    p = np.full(SHAPE, np.nan)
    lows = {bucket_range(b)[0]: b for b in range(GRID_BUCKETS)}
    for i, row in enumerate(rows, start=2):
        try:
            b = lows[int(row["stock_low"])]
            d = int(row["deadwood"])
            t = int(row["opp_taken"])
            value = float(row["p_knock"])
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{where} line {i}: bad cell {brief(dict(row))}; stock_low is a "
                             f"bucket's lower edge (0, 4, ..., 28), deadwood 1..{GRID_DEADWOOD}, "
                             f"opp_taken 0..{GRID_TAKEN - 1}, p_knock 0..1") from None
        if not (1 <= d <= GRID_DEADWOOD and 0 <= t < GRID_TAKEN):
            raise ValueError(f"{where} line {i}: deadwood must be 1..{GRID_DEADWOOD} and "
                             f"opp_taken 0..{GRID_TAKEN - 1}")
        p[b, d - 1, t] = value
    if np.isnan(p).any():
        raise ValueError(f"{where}: {int(np.isnan(p).sum())} of {p.size} cells missing; give "
                         f"one row per stock bucket x deadwood x opp_taken")
    try:
        return KnockChart(p, Path(where).stem)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def read_chart_file(path: str | Path) -> KnockChart:
    """Read a chart file (``.csv`` as CSV, anything else as JSON); one-line errors."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_CHART_BYTES:
            raise ValueError(f"knock chart file {path} is over {MAX_CHART_BYTES:,} bytes")
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"cannot read knock chart file {path}: {err.__class__.__name__}") \
            from None
    if path.suffix.lower() == ".csv":
        return chart_from_csv(text, str(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"knock chart file {path} is not valid JSON (line {err.lineno}: "
                         f"{err.msg}); write it with ginsim equilibrium or KnockChart.save")\
            from None
    return chart_from_dict(data, str(path))


def load_chart(name_or_path: str) -> KnockChart:
    """A built-in chart, a shipped one (``equilibrium``), or a JSON/CSV file."""
    text = str(name_or_path).strip()
    builtin = builtin_charts()
    if text in builtin:
        return builtin[text]
    shipped = CHART_DIR / f"{text}.json"
    if "/" not in text and shipped.is_file():
        return read_chart_file(shipped)
    path = Path(text)
    if path.is_file():
        return read_chart_file(path)
    raise ValueError(f"unknown knock chart {brief(text)}: give a file (.json or .csv) or one "
                     f"of {', '.join([*builtin, *shipped_names()])}")
