"""Equilibrium knock charts: "when should I knock?" against an opponent who adapts.

Fictitious play over knock charts, both seats with the same base card play: start from
"knock whenever allowed"; each iteration finds a best response (policy iteration on
counterfactual branches, :func:`ginsim.runner.responses.best_response`) to the
current average chart and measures its gain on fresh duplicate deals (the average's
exploitability). It stops when the 95% upper bound is at most ``target`` points per
hand, or after ``iterations``; otherwise the response joins the mixture (equal weights)
and the average chart, a knock probability per cell, is recomputed. The game is
symmetric (dealers alternate, each deal is played from both seats), so the
equilibrium's value against itself is 0; ``value`` is what it scores against the base
strategy as shipped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...game.deal_ranges import REGION_SPAN, deal_block
from ...game.inputs.checks import check_flag, check_int, check_jobs, check_number
from ...game.inputs.specs import brief
from ...game.rng_nb import check_seed
from ...game.rulebook.rules_in_words import no_knocking, preset_words
from ...game.rules import Rules
from ...runner.responses import (
    Response,
    best_response,
    cell_evidence,
    deal_points,
    paired_diff,
    paired_gain,
)
from ...simulator.branches.best_response import Gain, block_sums, gain_of, with_chart
from ...simulator.limits import MAX_EQUILIBRIUM_HANDS, check_equilibrium_hands
from ...strategies.charts.equilibria import hand_key, shipped_equilibrium
from ...strategies.charts.knock_charts import (
    SHAPE,
    KnockChart,
    constant_chart,
    load_chart,
)
from ...strategies.grid_nb import bucket_labels
from ...strategies.presets import Strategy, parse_strategy
from .equilibrium_result import TARGET, EquilibriumResult
from .knock_card import KnockAdvice, knock_card

DEFAULT_PASS_HANDS = 100_000
DEFAULT_ITERATIONS = 40
MAX_ITERATIONS = 200  # most fictitious-play iterations
MAX_PASSES = 50  # most policy-iteration passes per best response
REPLAY_BLOCK = 1_000  # deals per recorded block of the last exploitability measurement
#: The card play the report's answer assumes for both players: the strongest plain one.
ANSWER_BASE = "expert"


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


@dataclass(frozen=True)
class _Setting:
    """What every measurement of one equilibrium search shares."""

    rules: Rules
    base: Strategy
    seed: int
    hands: int
    n_jobs: int
    passes: int


@dataclass(frozen=True)
class _Step:
    """One fictitious-play iteration: the average chart, the best response to it and the
    response's paired gain per evaluation deal (``diff``)."""

    average: KnockChart
    response: Response
    diff: np.ndarray
    gain: Gain

    @property
    def counts(self) -> np.ndarray:
        """The response's decision points per cell (in the chart's shape)."""
        return self.response.evidence[0].reshape(SHAPE)


def equilibrium(rules: Rules | str | None = None, base: str = "memory2",
                hands: int = DEFAULT_PASS_HANDS, iterations: int = DEFAULT_ITERATIONS,
                seed: int = 0, n_jobs: int = 2, passes: int = 3,
                target: float = TARGET, progress: bool = False,
                start: KnockChart | str | None = None) -> EquilibriumResult:
    """The knock-chart equilibrium of ``base``'s card play under ``rules`` (see the
    module docstring). ``hands`` training hands per best-response pass and duplicate
    deals per exploitability measurement; at most ``iterations`` best responses.
    ``start`` is the chart fictitious play starts from (default "knock whenever
    allowed"; a chart, or a shipped chart's name or a file): an equilibrium of nearby
    rules converges in fewer iterations, and the stopping test is the same."""
    t0 = time.perf_counter()
    rules = Rules.coerce(rules)
    base_strategy = _checked_base(rules, base)
    hands = check_equilibrium_hands(hands)
    iterations = check_int(iterations, "iterations", 1, MAX_ITERATIONS)
    setting = _Setting(rules, base_strategy, check_seed(seed), hands, check_jobs(n_jobs),
                       check_int(passes, "passes", 1, MAX_PASSES))
    if setting.hands * iterations > REGION_SPAN:
        raise ValueError(f"equilibrium plays up to iterations x hands = "
                         f"{iterations * setting.hands:,} training hands, at most "
                         f"{REGION_SPAN:,}: lower iterations or hands")
    target = check_number(target, "target", 0, 1000, low_open=True, hint="points per hand")
    progress = check_flag(progress, "progress")
    start = _start_chart(start)
    mixture = [(start, 1.0)]
    history, last = _fictitious_play(setting, mixture, iterations, target, progress, t0)
    return _result(setting, mixture, history, last, iterations, start.name, t0)


def _checked_base(rules: Rules, base: str) -> Strategy:
    """The base card play, once ``rules`` are known to knock and ``base`` reads a chart."""
    if not rules.knocks:
        raise ValueError(f"{no_knocking(repr(rules.spec()))}, so there is no knock chart "
                         "to find: give rules with a knock limit")
    base_strategy = parse_strategy(base)
    if base_strategy.is_mc:
        raise ValueError(f"equilibrium base {brief(base)} is the mc player, which searches "
                         f"every choice itself and reads no knock chart: give a plain "
                         f"strategy such as memory2")
    return base_strategy


def _start_chart(start: KnockChart | str | None) -> KnockChart:
    """The chart fictitious play starts from: ``start``, or "knock whenever allowed"."""
    if start is None:
        return constant_chart(1, "always")
    if isinstance(start, str):
        return load_chart(start)
    if not isinstance(start, KnockChart):
        raise ValueError(f"start must be a knock chart or a chart name, got {brief(start)}")
    return start


def _fictitious_play(s: _Setting, mixture: list[tuple[KnockChart, float]], iterations: int,
                     target: float, progress: bool, t0: float) -> tuple[list[dict], _Step]:
    """Best responses to the running average until one gains at most ``target`` (upper
    bound) or ``iterations`` ran; each other response joins ``mixture``. Returns the
    history rows and the last iteration."""
    me = with_chart(s.base, mixture[0][0])
    reach_start = deal_block("reach", -1, s.hands)
    reach = [cell_evidence(me, me, s.rules, s.seed, reach_start, s.hands,
                           s.n_jobs)[0].reshape(SHAPE)]
    history: list[dict] = []
    previous = None
    for k in range(iterations):
        step = _iteration(s, k, _mean_chart(mixture, reach), previous)
        history.append(_history_row(k, step, t0))
        if progress:
            print(f"  iteration {k + 1}: exploitability {step.gain.mean:+.3f} "
                  f"({step.gain.low:+.3f} to {step.gain.high:+.3f}), "
                  f"{history[-1]['seconds']:.0f} s", flush=True)
        if step.gain.high <= target or k == iterations - 1:
            return history, step
        mixture.append((step.response.chart, 1.0))
        reach.append(step.counts)
        previous = step.response.chart
    raise AssertionError("unreachable: the last iteration returns")


def _iteration(s: _Setting, k: int, average: KnockChart, previous: KnockChart | None
               ) -> _Step:
    """Iteration ``k``: a best response to ``average`` on training block ``k`` (policy
    iteration from the previous response, or from the average), its gain on
    evaluation block ``k``."""
    opponent = with_chart(s.base, average)
    response = best_response(s.base, opponent, s.rules, s.seed, s.hands, passes=s.passes,
                             start_chart=previous or average, n_jobs=s.n_jobs,
                             name=f"response{k + 1}",
                             start=deal_block("training", k, s.hands))
    diff = paired_diff(with_chart(s.base, response.chart), opponent, opponent, opponent,
                       s.rules, s.seed, s.hands, s.n_jobs,
                       start=deal_block("evaluation", k, s.hands))
    return _Step(average, response, diff, gain_of(diff))


def _history_row(k: int, step: _Step, t0: float) -> dict:
    """The history table's row of iteration ``k``."""
    p = step.average.p
    return {"iteration": k + 1, "exploitability": step.gain.mean, "low": step.gain.low,
            "high": step.gain.high, "policy_passes": len(step.response.changes),
            "cells_changed": sum(step.response.changes),
            "mixed_cells": int(((p > 0) & (p < 1)).sum()),
            "knock_share": float(step.response.chart.p.mean()),
            "seconds": round(time.perf_counter() - t0, 1)}


def _result(s: _Setting, mixture: list[tuple[KnockChart, float]], history: list[dict],
            last: _Step, iterations: int, start_name: str, t0: float) -> EquilibriumResult:
    """The search's result: the mixture normalised, the value of the last average (the
    chart the last exploitability was measured against; the last response did not join
    the mixture) against the base strategy on the evaluation deals after every
    iteration's, and the last measurement's replay record."""
    total = sum(w for _, w in mixture)
    mixture = [(c, w / total) for c, w in mixture]
    eq = with_chart(s.base, last.average)
    value = paired_gain(eq, s.base, s.base, s.base, s.rules, s.seed, s.hands, s.n_jobs,
                        start=deal_block("evaluation", iterations, s.hands))
    gain = last.gain
    return EquilibriumResult(
        rules=s.rules, base=s.base.spec, average=last.average, mixture=mixture,
        exploitability=(float(gain.mean), float(gain.low), float(gain.high)),
        value=(float(value.mean), float(value.low), float(value.high)),
        history=pd.DataFrame(history), counts=last.counts, hands=s.hands,
        iterations=len(history), seed=s.seed, seconds=time.perf_counter() - t0,
        start_name=start_name,
        extra={"exploitability_replay": {
            "response": last.response.chart.p.astype(int).tolist(), "seed": s.seed,
            "start": deal_block("evaluation", len(history) - 1, s.hands), "deals": s.hands,
            "block": REPLAY_BLOCK, "blocks": block_sums(last.diff, REPLAY_BLOCK)}})


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
    status = ("reached" if result.converged else "NOT reached" if result.measured else
              "not measured: the best response could not move from the chart (every deal's "
              "gain is 0); give more --hands")
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


def chart_advice(chart: KnockChart, info: dict[str, Any], rules: Rules, where: str,
                 player: str | None = None) -> KnockAdvice:
    """The knock card and recorded figures of an equilibrium chart made under ``rules``
    (``info`` as :meth:`EquilibriumResult.info` writes it; ``where`` says where the chart
    comes from, e.g. "the shipped chart")."""
    limit = min(max(rules.knock_limit, 1), SHAPE[1])
    card = knock_card(chart.p.transpose(1, 0, 2)[:limit])
    value = [float(v) for v in info.get("value", (np.nan,) * 3)]
    exploitability = tuple(float(v) for v in info.get("exploitability", (np.nan,) * 3))
    hands = int(info.get("hands", 0))
    base = str(info.get("value_against", info.get("base", "memory2")))
    made = f", made {info['date']}" if info.get("date") else ""
    command = f"made by `{info['command']}`" if info.get("command") else "command not recorded"
    seed = "" if "--seed" in command else f", seed {info.get('seed', 'not recorded')}"
    provenance = (f"{where} ({command}{seed}{made}; its exploitability and recorded value "
                  f"from {hands:,} deals per measurement)")
    values = pd.DataFrame([{"opponent": base, "mean": value[0], "low": value[1],
                            "high": value[2], "deals": hands, "where": provenance}])
    return KnockAdvice(
        card=card, values=values, exploits=None, card_play=str(info.get("base", base)),
        exploitability=(exploitability[0], exploitability[1], exploitability[2]),
        provenance=provenance, player=player, chart=chart,
        source=f"the {rules.spec()}-rules equilibrium knock chart ({where}, "
               f"{info.get('base', base)} card play for both players)")


def equilibrium_advice(rules: Rules | str | None = None, chart: str | Path | None = None
                       ) -> KnockAdvice | None:
    """The report's knock advice for ``rules``: the shipped equilibrium chart for
    :data:`ANSWER_BASE` card play (memory2's where none is shipped) made under the same
    hand rules (:func:`~ginsim.strategies.charts.equilibria.shipped_equilibrium`), or
    ``chart``, an ``equilibrium.json`` written by ``ginsim equilibrium``, which must have
    been made under the same hand rules (ValueError otherwise). None when no shipped
    chart matches and no file is given."""
    rules = Rules.coerce(rules)
    if chart is not None:
        path = Path(chart)
        loaded = load_chart(str(path))
        info = dict(loaded.info)
        try:
            made_under = Rules(**info["rules_fields"])
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{path}: not an equilibrium chart written by ginsim "
                             "equilibrium (its info has no rules_fields)") from None
        if hand_key(made_under) != hand_key(rules):
            raise ValueError(f"{path} was made under {made_under.spec()} rules, whose hands "
                             f"play differently from {rules.spec()}; make one with ginsim "
                             f"equilibrium --rules {rules.spec()}")
        return chart_advice(loaded, info, rules, f"the chart file {path.name}",
                            f"{info.get('base', 'memory2')}:chart={path}")
    shipped = shipped_equilibrium(rules, ANSWER_BASE) or shipped_equilibrium(rules)
    if shipped is None:
        return None
    name, chart = shipped
    info = chart.info
    same = info.get("same_hand_rules_as")
    made_for = preset_words(str(info.get("rules", "unrecorded")))
    where = (f"the knock chart shipped for {made_for} rules"
             + (f", made for {same} rules: the same hands" if same else ""))
    return chart_advice(chart, info, rules, where,
                        f"{info.get('base', 'memory2')}:chart={name}")


def result_advice(result: EquilibriumResult) -> KnockAdvice:
    """The knock advice of an equilibrium computed in this run."""
    return chart_advice(result.average, result.info(), result.rules,
                        "computed in this run")
