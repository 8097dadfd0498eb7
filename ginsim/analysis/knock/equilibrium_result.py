"""The outcome of an equilibrium search (:func:`ginsim.analysis.knock.equilibrium.equilibrium`):
the average knock chart, the mixture behind it, the measured exploitability and value,
and how it is saved (chart file with provenance, cell table, history)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...game.rules import Rules
from ...strategies.charts.knock_charts import SHAPE, KnockChart, bucket_labels

TARGET = 0.10  # stop once the exploitability's 95% upper bound is at most this


@dataclass
class EquilibriumResult:
    """Outcome of :func:`equilibrium`. ``chart`` is the average chart as a table
    (stock, deadwood, opp_taken, p_knock, n), ``mixture`` the (chart, weight) pairs,
    ``exploitability`` and ``value`` (mean, low, high) points per hand."""

    rules: Rules
    base: str
    average: KnockChart
    mixture: list[tuple[KnockChart, float]]
    exploitability: tuple[float, float, float]
    value: tuple[float, float, float]
    history: pd.DataFrame
    counts: np.ndarray
    hands: int
    iterations: int
    seed: int
    seconds: float
    command: str = ""
    chart_path: str = "equilibrium.json"
    start_name: str = "always"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def measured(self) -> bool:
        """Whether the last best response could move at all: its paired gain has a
        spread. With too few hands no cell reaches the evidence a change needs, the
        response replays the average and every deal's gain is 0 (a zero-width interval
        that says nothing about exploitability)."""
        low, high = self.exploitability[1], self.exploitability[2]
        return bool(high > low)

    @property
    def converged(self) -> bool:
        return bool(self.measured and self.exploitability[2] <= TARGET)

    @property
    def spec(self) -> str:
        """A strategy spec for ``--a``: the base card play with the saved chart file."""
        return f"{self.base}:chart={self.chart_path}"

    @property
    def chart(self) -> pd.DataFrame:
        labels = bucket_labels()
        rows = [(labels[b], d + 1, ("0", "1", "2+")[t], float(self.average.p[b, d, t]),
                 int(self.counts[b, d, t]))
                for b in range(SHAPE[0]) for d in range(SHAPE[1]) for t in range(SHAPE[2])]
        frame = pd.DataFrame(rows, columns=["stock", "deadwood", "opp_taken", "p_knock", "n"])
        frame["stock"] = pd.Categorical(frame["stock"], labels, ordered=True)
        return frame

    def info(self) -> dict[str, Any]:
        """Provenance written into the chart file."""
        return {"command": self.command, "rules": self.rules.spec(),
                "rules_fields": self.rules.to_dict(), "base": self.base, "seed": self.seed,
                "hands": self.hands, "iterations": self.iterations,
                "exploitability": [float(v) for v in self.exploitability],
                "value": [float(v) for v in self.value],
                "value_against": self.base, "converged": bool(self.converged),
                "measured": bool(self.measured), "start_chart": self.start_name,
                "mixture_weights": [float(w) for _, w in self.mixture],
                "seconds": round(self.seconds, 1), **self.extra}

    def save(self, out: str | Path) -> dict[str, Path]:
        """Write ``equilibrium.json`` (the average chart, with ``spec`` and provenance),
        ``equilibrium.csv`` (its cells) and ``history.csv`` into directory ``out``."""
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {out} is a file; give a directory")
        out.mkdir(parents=True, exist_ok=True)
        path = out / "equilibrium.json"
        self.chart_path = str(path)
        chart = KnockChart(self.average.p, "equilibrium", self.info())
        data = json.loads(chart.to_json())
        data["spec"] = self.spec
        data["mixture"] = [{"weight": w, "p_knock": c.p.astype(int).tolist()}
                           for c, w in self.mixture]
        path.write_text(json.dumps(data, indent=1))
        files = {"json": path, "csv": out / "equilibrium.csv",
                 "history": out / "history.csv"}
        self.chart.to_csv(files["csv"], index=False)
        self.history.to_csv(files["history"], index=False)
        return files
