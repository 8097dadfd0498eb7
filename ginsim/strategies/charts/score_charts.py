"""Knock charts by game score: one knock chart (:class:`~.knock_charts.KnockChart`) per
cell of a 6 x 6 grid of each side's distance to the game's target, read from and
written to JSON, and found by name or by rules.

A strategy that plays for the game (``game=1``, its default) and knocks by a chart
family (``equilibrium``, ``equilibrium_expert``, ``equilibrium_learned``) plays, inside
a two-player game under standard scoring, the cell of the shipped score chart for its
family and the rules' hands that the score falls in (the game kernels swap the knock
grid before each hand; hand-level play never sees a score). The charts are made by
``scripts/make_score_charts.py`` (:mod:`ginsim.analysis.knock.knock_by_score`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ...game.inputs.files import is_regular, parse_json, read_bounded
from ...game.inputs.specs import brief
from ...game.rules import Rules
from ..grid_nb import bucket_labels
from ..params import GRID_CELLS
from .equilibria import KNOCKING_PRESETS, hand_key, shipped_chart_name, shipped_equilibrium
from .knock_charts import CHART_FAMILIES, SHAPE, KnockChart
from .score_grid_nb import DISTANCE_SHARES, SCORE_BUCKETS, distance_bucket_nb

SCORE_DIR = Path(__file__).parent / "score_data"
SCORE_FORMAT = "ginsim score knock chart"
SCORE_SHAPE = (SCORE_BUCKETS, SCORE_BUCKETS, *SHAPE)
MAX_SCORE_CHART_BYTES = 2_000_000
MAX_SCORE_CHART_DEPTH = 32
#: the chart family of each card play, the other way round (``expert`` →
#: ``equilibrium_expert``)
FAMILY_OF = {base: stem for stem, base in CHART_FAMILIES.items()}
#: the score charts' stem by card play (``score_expert``, ``score_expert_oklahoma``)
SCORE_STEMS = {"memory2": "score_equilibrium", "expert": "score_expert",
               "learned": "score_learned"}


def distance_edges(target: int) -> np.ndarray:
    """int64[SCORE_BUCKETS - 1]: the largest distance to ``target`` of each bucket but
    the last (for 100: 10, 25, 45, 65, 85)."""
    return np.array([max(1, round(share * target)) for share in DISTANCE_SHARES],
                    dtype=np.int64)


def distance_bucket(distance: int, target: int) -> int:
    """The score chart's bucket of a side ``distance`` points short of ``target``
    (0: nearest the target)."""
    return int(distance_bucket_nb(int(distance), distance_edges(target)))


def distance_labels(target: int = 100) -> list[str]:
    """``1-10``, ``11-25``, ..., ``86-100``: each bucket's distances to ``target``."""
    edges = [0, *distance_edges(target).tolist(), target]
    return [f"{lo + 1}-{hi}" for lo, hi in zip(edges, edges[1:], strict=False)]


def score_cell(mine: int, theirs: int, target: int) -> tuple[int, int]:
    """The chart cell ``(my bucket, the opponent's bucket)`` at ``mine`` to ``theirs``
    points (each 0 .. target - 1); a one-line ValueError otherwise."""
    for name, v in (("my score", mine), ("the opponent's score", theirs)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not (
                0 <= v < target):
            raise ValueError(f"{name} must be a whole number in 0..{target - 1} (below the "
                             f"target {target}), got {brief(v)}")
    return distance_bucket(target - mine, target), distance_bucket(target - theirs, target)


@dataclass(frozen=True)
class ScoreChart:
    """Knock probabilities ``p[my distance bucket, the opponent's distance bucket, stock
    bucket, deadwood - 1, opponent's pile takes]`` (:data:`SCORE_SHAPE`) and provenance
    (``info``: command, seed, hands, exploitability in game-win chance...)."""

    p: np.ndarray
    name: str = "score chart"
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        p = np.array(self.p, dtype=np.float64)
        if p.shape != SCORE_SHAPE:
            raise ValueError(f"a score knock chart has {SCORE_SHAPE} cells (my distance x "
                             f"the opponent's x stock x deadwood x takes), got {p.shape}")
        if not np.all((p >= 0) & (p <= 1)):
            raise ValueError("score knock chart cells are probabilities in 0..1")
        if not isinstance(self.info, dict):
            raise ValueError(f"a score chart's info is a dict, got {brief(self.info, 40)}")
        p.setflags(write=False)
        object.__setattr__(self, "p", p)

    def chart_at(self, mine: int, theirs: int, target: int = 100) -> KnockChart:
        """The knock chart this score chart plays at ``mine`` to ``theirs`` points."""
        i, j = score_cell(mine, theirs, target)
        return KnockChart(self.p[i, j], f"{self.name}@{mine}-{theirs}", {})

    def grid_at(self, scores: tuple[int, int] | None, seat: int, target: int
                ) -> np.ndarray | None:
        """The knock grid (parameter-vector order) of seat ``seat`` at ``scores`` (seat
        0's points, seat 1's); None when no scores are known or the target cannot hold
        them (the hand's own chart plays)."""
        if scores is None or not all(0 <= s < target for s in scores):
            return None
        return self.chart_at(int(scores[seat]), int(scores[1 - seat]), target).p.reshape(-1)

    @property
    def grids(self) -> np.ndarray:
        """float64[SCORE_BUCKETS, SCORE_BUCKETS, GRID_CELLS]: each cell's chart in
        parameter-vector order (what the game kernels copy into the ``grid`` slots)."""
        return np.ascontiguousarray(self.p.reshape(SCORE_BUCKETS, SCORE_BUCKETS, GRID_CELLS))

    def to_json(self) -> str:
        """JSON: ``p_knock[my bucket][their bucket][stock bucket][deadwood - 1][takes]``."""
        return json.dumps({"format": SCORE_FORMAT, "name": self.name,
                           "distance_buckets": distance_labels(
                               int(self.info.get("target", 100))),
                           "stock_buckets": bucket_labels(),
                           "p_knock": np.round(self.p, 4).tolist(), "info": self.info},
                          separators=(",", ":"))

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_json())
        return path


def score_chart_from_dict(data: Any, where: str) -> ScoreChart:
    """A score chart from parsed JSON, checked against the schema (format, shape, cells
    in 0..1, info an object); one-line ValueErrors naming ``where``."""
    if not isinstance(data, dict) or data.get("format") != SCORE_FORMAT:
        raise ValueError(f"{where} is not a score knock chart: expected a JSON object with "
                         f"format {SCORE_FORMAT!r} and p_knock")
    try:
        p = np.array(data.get("p_knock"), dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: p_knock must be nested lists of numbers in 0..1 of shape "
                         f"{SCORE_SHAPE}") from None
    name = data.get("name", Path(where).stem)
    if not isinstance(name, str):
        raise ValueError(f"{where}: name must be text, got {brief(name, 40)}")
    try:
        return ScoreChart(p, name, data.get("info", {}))
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def read_score_chart(path: str | Path) -> ScoreChart:
    """Read a score chart JSON file (a regular file of at most
    :data:`MAX_SCORE_CHART_BYTES`); one-line ValueErrors."""
    path = Path(path)
    data = read_bounded(path, MAX_SCORE_CHART_BYTES, "score knock chart file")
    return score_chart_from_dict(parse_json(data, f"score knock chart file {path}",
                                            MAX_SCORE_CHART_DEPTH), str(path))


def score_chart_name(preset: str, base: str = "expert") -> str:
    """The shipped score chart of rules ``preset`` for ``base`` card play:
    ``score_expert`` (modern), ``score_expert_oklahoma``...; ``score_equilibrium*`` for
    memory2 (the ``equilibrium`` preset), ``score_learned*`` for learned."""
    return shipped_chart_name("score", SCORE_STEMS, preset, base)


@cache
def _shipped_file(name: str, mtime_ns: int, size: int) -> ScoreChart:
    return read_score_chart(SCORE_DIR / f"{name}.json")


def load_score_chart(name_or_path: str) -> ScoreChart:
    """A shipped score chart by name (``score_expert``) or a JSON file."""
    text = str(name_or_path).strip()
    shipped = SCORE_DIR / f"{text}.json"
    if "/" not in text and is_regular(shipped):
        stat = shipped.stat()
        return _shipped_file(text, stat.st_mtime_ns, stat.st_size)
    path = Path(text)
    if path.exists():
        return read_score_chart(path)
    names = ", ".join(sorted(p.stem for p in SCORE_DIR.glob("*.json"))) or "none"
    raise ValueError(f"unknown score knock chart {brief(text)}: give a JSON file or a shipped "
                     f"one ({names})")


def shipped_score_chart(rules: Rules, base: str = "expert") -> tuple[str, ScoreChart] | None:
    """The name and chart of the shipped score chart for ``base`` card play made under
    hand rules equal to ``rules``'; for rules with no shipped knock charts of their own
    (custom rules, ``eaai``), which play the family's modern hand chart, the modern score
    chart; None otherwise, or for another card play."""
    if base not in SCORE_STEMS:
        return None
    key = hand_key(rules)
    for preset in KNOCKING_PRESETS:
        name = score_chart_name(preset, base)
        if not is_regular(SCORE_DIR / f"{name}.json"):
            continue
        chart = load_score_chart(name)
        try:
            made = Rules(**chart.info["rules_fields"])
        except (KeyError, TypeError, ValueError):
            continue
        if hand_key(made) == key:
            return name, chart
    modern = score_chart_name("modern", base)
    if shipped_equilibrium(rules, base) is None and is_regular(SCORE_DIR / f"{modern}.json"):
        return modern, load_score_chart(modern)
    return None
