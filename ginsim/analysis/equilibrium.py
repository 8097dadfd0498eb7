"""Equilibrium knock charts: "when should I knock?" against an opponent who adapts.

Fictitious play over knock charts, both seats with the same base card play: start from
"knock whenever allowed"; each iteration finds a best response (policy iteration on
counterfactual branches, :func:`ginsim.simulator.response.best_response`) to the
current average chart and measures its gain on fresh duplicate deals (the average's
exploitability). It stops when the 95% upper bound is at most ``target`` points per
hand, or after ``iterations``; otherwise the response joins the mixture (equal weights)
and the average chart, a knock probability per cell, is recomputed. The game is
symmetric (dealers alternate, each deal is played from both seats), so the
equilibrium's value against itself is 0; ``value`` is what it scores against the base
strategy as shipped.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..game.checks import check_flag, check_jobs, check_number
from ..game.rules import Rules, brief
from ..simulator.limits import (
    MAX_EQUILIBRIUM_HANDS,
    check_equilibrium_hands,
    check_int,
    check_seed,
)
from ..simulator.response import (
    TRAIN_REGION,
    Gain,
    best_response,
    block_sums,
    cell_evidence,
    deal_points,
    gain_of,
    paired_diff,
    paired_gain,
    with_chart,
)
from ..strategies.charts import (
    CHART_DIR,
    SHAPE,
    KnockChart,
    bucket_labels,
    constant_chart,
    load_chart,
)
from ..strategies.presets import parse_strategy
from .knock_chart import KnockAdvice, knock_card

DEFAULT_HANDS = 100_000
DEFAULT_ITERATIONS = 40
TARGET = 0.10  # stop once the exploitability's 95% upper bound is at most this
MAX_ITERATIONS = 200  # most fictitious-play iterations
MAX_PASSES = 50  # most policy-iteration passes per best response
REPLAY_BLOCK = 1_000  # deals per recorded block of the last exploitability measurement


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
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def converged(self) -> bool:
        return bool(self.exploitability[2] <= TARGET)

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


def _mean_chart(mixture: list[tuple[KnockChart, float]], reach: list[np.ndarray]
                ) -> KnockChart:
    """The behaviour chart that plays like the mixture (extensive-form fictitious play):
    each cell averages the charts weighted by how often each reaches that cell
    (``reach``: its decision points per cell); the plain weighted mean where none does."""
    plain = sum(c.p * w for c, w in mixture) / sum(w for _, w in mixture)
    weight = sum(r * w for r, (_, w) in zip(reach, mixture, strict=True)).astype(float)
    num = sum(c.p * r * w for r, (c, w) in zip(reach, mixture, strict=True))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(weight > 0, num / np.maximum(weight, 1e-300), plain)
    # Six decimals, as chart files store them: a saved chart plays exactly as measured.
    return KnockChart(np.round(np.clip(p, 0, 1), 6), "average")


def equilibrium(rules: Rules | str | None = None, base: str = "memory2",
                hands: int = DEFAULT_HANDS, iterations: int = DEFAULT_ITERATIONS,
                seed: int = 0, n_jobs: int = 2, passes: int = 3,
                target: float = TARGET, progress: bool = False) -> EquilibriumResult:
    """The knock-chart equilibrium of ``base``'s card play under ``rules`` (see the
    module docstring). ``hands`` training hands per best-response pass and duplicate
    deals per exploitability measurement; at most ``iterations`` best responses."""
    t0 = time.perf_counter()
    rules = Rules.coerce(rules)
    if not rules.knocks:
        raise ValueError(f"rules {rules.spec()!r} allow no knocking (gin only), so there is "
                         f"no knock chart to find: give rules with a knock limit")
    base_strategy = parse_strategy(base)
    if base_strategy.is_mc:
        raise ValueError(f"equilibrium base {brief(base)} is the mc player, which searches "
                         f"every choice itself and reads no knock chart: give a plain "
                         f"strategy such as memory2")
    hands = check_equilibrium_hands(hands)
    iterations = check_int(iterations, "iterations", 1, MAX_ITERATIONS)
    seed = check_seed(seed)
    n_jobs = check_jobs(n_jobs)
    passes = check_int(passes, "passes", 1, MAX_PASSES)
    target = check_number(target, "target", 0, 1000, low_open=True,
                          hint="points per hand")
    progress = check_flag(progress, "progress")
    start = constant_chart(1, "always")
    mixture = [(start, 1.0)]
    me = with_chart(base_strategy, start)
    reach = [cell_evidence(me, me, rules, seed, TRAIN_REGION - hands, hands, n_jobs)[0]
             .reshape(SHAPE)]
    history = []
    previous = None
    gain = Gain(np.inf, np.inf, np.inf, 0)
    counts = np.zeros(SHAPE, dtype=np.int64)
    for k in range(iterations):
        average = _mean_chart(mixture, reach)
        opponent = with_chart(base_strategy, average)
        response = best_response(base_strategy, opponent, rules, seed, hands, passes=passes,
                                 start_chart=previous or average, n_jobs=n_jobs,
                                 name=f"response{k + 1}",
                                 start=TRAIN_REGION + k * hands)
        diff = paired_diff(with_chart(base_strategy, response.chart), opponent, opponent,
                           opponent, rules, seed, hands, n_jobs, start=k * hands)
        gain = gain_of(diff)
        counts = response.evidence[0].reshape(SHAPE)
        mixed = int(((average.p > 0) & (average.p < 1)).sum())
        history.append({"iteration": k + 1, "exploitability": gain.mean, "low": gain.low,
                        "high": gain.high, "policy_passes": len(response.changes),
                        "cells_changed": sum(response.changes), "mixed_cells": mixed,
                        "knock_share": float(response.chart.p.mean()),
                        "seconds": round(time.perf_counter() - t0, 1)})
        if progress:
            h = history[-1]
            print(f"  iteration {k + 1}: exploitability {gain.mean:+.3f} "
                  f"({gain.low:+.3f} to {gain.high:+.3f}), {h['seconds']:.0f} s", flush=True)
        if gain.high <= target or k == iterations - 1:
            break
        mixture.append((response.chart, 1.0))
        reach.append(counts)
        previous = response.chart
    total = sum(w for _, w in mixture)
    mixture = [(c, w / total) for c, w in mixture]
    # ``average`` is the chart the last exploitability was measured against (the last
    # response did not join the mixture).
    eq = with_chart(base_strategy, average)
    value = paired_gain(eq, base_strategy, base_strategy, base_strategy, rules, seed, hands,
                        n_jobs, start=iterations * hands)
    return EquilibriumResult(
        rules=rules, base=base_strategy.spec, average=average, mixture=mixture,
        exploitability=(float(gain.mean), float(gain.low), float(gain.high)),
        value=(float(value.mean), float(value.low), float(value.high)),
        history=pd.DataFrame(history), counts=counts, hands=hands, iterations=len(history),
        seed=seed, seconds=time.perf_counter() - t0,
        extra={"exploitability_replay": {
            "response": response.chart.p.astype(int).tolist(), "seed": seed,
            "start": (len(history) - 1) * hands, "deals": hands, "block": REPLAY_BLOCK,
            "blocks": block_sums(diff, REPLAY_BLOCK)}})


def chart_grid(chart: KnockChart, taken: int = 0) -> str:
    """The chart as text: rows deadwood, columns stock left in play order; ``K`` knock,
    ``w`` wait, else the knock percentage."""
    labels = bucket_labels()
    lines = ["dw  " + " ".join(f"{s:>5}" for s in labels)]
    for d in range(SHAPE[1]):
        cells = []
        for b in range(SHAPE[0]):
            p = chart.p[b, d, taken]
            cells.append("K" if p >= 0.995 else "w" if p <= 0.005 else f"{100 * p:.0f}%")
        lines.append(f"{d + 1:>2}  " + " ".join(f"{c:>5}" for c in cells))
    return "\n".join(lines)


def summary_text(result: EquilibriumResult) -> str:
    """What ``ginsim equilibrium`` prints."""
    e, v = result.exploitability, result.value
    out = [f"knock-chart equilibrium: {result.base} card play, {result.rules.spec()} rules "
           f"(knock limit {result.rules.knock_limit}, gin {result.rules.gin_bonus}, "
           f"undercut {result.rules.undercut_bonus}, tie "
           f"{'is' if result.rules.undercut_on_tie else 'is not'} an undercut)"]
    for t, words in enumerate(("has taken no card from the pile",
                               "has taken 1 card from the pile",
                               "has taken 2+ cards from the pile")):
        out += ["", f"knock chart when the opponent {words} (K knock, w wait, % knock share;"
                    " stock left in play order):", chart_grid(result.average, t)]
    status = ("reached" if result.converged else "NOT reached")
    out += ["",
            f"exploitability: {e[0]:+.3f} points per hand (95% CI {e[1]:+.3f} to {e[2]:+.3f}); "
            f"target upper bound <= {TARGET:.2f}: {status}",
            f"value: 0 against itself (symmetric game); {v[0]:+.3f} per hand against "
            f"{result.base} as shipped (95% CI {v[1]:+.3f} to {v[2]:+.3f})",
            f"iterations: {result.iterations} best responses, mixture of "
            f"{len(result.mixture)} charts; {result.hands:,} hands per pass, seed "
            f"{result.seed}; {result.seconds:.0f} s"]
    return "\n".join(out)


def knock_share(result: EquilibriumResult) -> pd.Series:
    """Share of decision points (deadwood 1+) where the chart knocks, per stock bucket,
    weighted by how often the last best response met each cell."""
    counts = result.counts.astype(float)
    per_bucket = (result.average.p * counts).sum(axis=(1, 2)) / np.maximum(
        counts.sum(axis=(1, 2)), 1)
    return pd.Series(per_bucket, index=bucket_labels(), name="knock_share")


def lowest_wait(result: EquilibriumResult, taken: int = 0) -> list[str]:
    """Per stock bucket, the deadwood range the chart knocks with (p >= 0.5)."""
    out = []
    for b in range(SHAPE[0]):
        knock = [d + 1 for d in range(SHAPE[1]) if result.average.p[b, d, taken] >= 0.5]
        out.append(f"{min(knock)}-{max(knock)}" if knock else "wait")
    return out


def candidate_gains(strategy: str, candidates: list[str], rules: Rules | str | None,
                    deals: int, seed: int = 0, n_jobs: int = 2) -> pd.DataFrame:
    """Points per hand each candidate gains against ``strategy`` on duplicate deals,
    paired with ``strategy`` against itself on the same deals (normal 95% CIs);
    ``exploits`` when the gain is above 0.05 with its lower bound above 0.05."""
    rules = Rules.coerce(rules)
    me = parse_strategy(strategy)
    deals = check_int(deals, "deals", 2, MAX_EQUILIBRIUM_HANDS)
    seed = check_seed(seed)
    n_jobs = check_jobs(n_jobs)
    ref = deal_points(me, me, rules, seed, deals, n_jobs)
    rows = []
    for spec in candidates:
        diff = deal_points(parse_strategy(spec), me, rules, seed, deals, n_jobs) - ref
        mean = float(diff.mean())
        half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(diff.size)
        rows.append({"candidate": spec, "gain": mean, "low": mean - half, "high": mean + half,
                     "deals": int(diff.size),
                     "exploits": bool(mean > 0.05 and mean - half > 0.05)})
    return pd.DataFrame(rows)


def equilibrium_advice(rules: Rules | str | None = None, taken: int = 0):
    """The report's advice from the shipped ``equilibrium`` chart when it was made under
    ``rules`` (else None): its knock card (the cells where the opponent has taken
    ``taken`` cards from the pile so far), its value against the base it was measured
    against, no exploit."""
    rules = Rules.coerce(rules)
    path = CHART_DIR / "equilibrium.json"
    try:
        data = json.loads(path.read_text())
        info = data["info"]
        if Rules(**info["rules_fields"]) != rules:  # fields added since default alike
            return None
        chart = load_chart("equilibrium")
        value = tuple(float(v) for v in info["value"])
        exploitability = [float(v) for v in info["exploitability"]]
    except (OSError, KeyError, TypeError, ValueError):
        return None
    limit = max(rules.knock_limit, 1)
    labels = bucket_labels()
    card = pd.DataFrame([(d + 1, labels[b], float(chart.p[b, d, taken]))
                         for b in range(SHAPE[0]) for d in range(min(limit, SHAPE[1]))],
                        columns=["deadwood", "stock", "p_knock"])
    return KnockAdvice(
        card=knock_card(card), value=(value[0], value[1], value[2]),
        measured_against=str(info.get("value_against", info.get("base", "memory2"))),
        exploits=None,
        source=(f"the {rules.spec()}-rules equilibrium knock chart (preset `equilibrium`, "
                f"{info.get('base', 'memory2')} card play; card shown for an opponent "
                f"that has taken no card from the pile); a best response gains at most "
                f"{exploitability[2]:.2f} points per hand against it (95% upper bound)"),
        deals=int(info.get("hands", 0)) or None,
        exploitability=(exploitability[0], exploitability[1], exploitability[2]))
