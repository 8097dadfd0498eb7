"""Turn study results (``ginsim.analysis.studies``) into a report: charts, readings,
tables and methods, written by :func:`ginsim.reports.builder.build_report`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from ..analysis.studies import StudyResult
from .builder import ReportSpec, Section, build_report
from .charts import (
    hand_length_chart,
    heatmap_chart,
    outcome_mix_chart,
    threshold_chart,
    undercut_chart,
    variant_chart,
)


def _stock_order(frame: pd.DataFrame, column: str = "stock") -> pd.DataFrame:
    low = frame[column].str.split("-").str[0].astype(int)
    return frame.assign(_low=low).sort_values(["_low"], kind="stable").drop(columns="_low")


def knock_sections(result: StudyResult) -> list[Section]:
    """Sections of the ``knock`` study."""
    t = result.tables
    sweep, best = t["threshold_sweep"], t["best_response"]
    sections = [Section(
        "Expected points by knock threshold",
        "Each line is `simple:knock=t` against one opponent over the same duplicate deals; "
        "the star marks the best threshold. " + " ".join(
            f"Against `{r.opponent}` the best is {r.best_threshold} ({r.mean:+.2f} points "
            f"per hand, 95% CI [{r.low:+.2f}, {r.high:+.2f}])." for r in best.itertuples()),
        threshold_chart(sweep.assign(n=2 * sweep.n)), "threshold_sweep", sweep,
        "threshold_sweep")]
    chart = _stock_order(t["knock_chart"])
    knock_cells = (chart.verdict == "knock").sum()
    wait_cells = (chart.verdict == "wait").sum()
    sections.append(Section(
        "Knock now or wait a turn? (counterfactual chart)",
        f"At every point where `simple` could knock, the hand was played on twice from the "
        f"same cards: knocking now, and waiting one turn. Blue cells favour knocking, red "
        f"cells waiting ({knock_cells} cells clearly favour knocking, {wait_cells} waiting; "
        f"hatched cells are not distinguishable from 0).",
        heatmap_chart(chart, x="stock", y="deadwood", value="gain",
                      title="Gain of knocking now over waiting one turn",
                      value_label="points per decision", diverging=True,
                      x_label="Cards left in the stock", y_label="Knocker deadwood (points)",
                      unit="decisions"),
        "knock_chart", t["knock_chart"], "knock_chart"))
    under = t["undercut_by_deadwood"]
    worst = under.loc[under.rate.idxmax()]
    sections.append(Section(
        "How often a knock is undercut",
        f"Of knocks by `simple` against `simple` (knock at 10), the undercut rate climbs "
        f"with the knocker's deadwood, to {worst.rate:.1%} at {int(worst.deadwood)} "
        f"(95% CI [{worst.low:.1%}, {worst.high:.1%}], {int(worst.n):,} knocks).",
        undercut_chart(under), "undercut_by_deadwood", under, "undercut_by_deadwood"))
    by_stock = _stock_order(t["undercut_by_deadwood_stock"])
    sections.append(Section(
        "Undercut rate by deadwood and stock left",
        "Later knocks face opponents who have had more draws to reduce their deadwood.",
        heatmap_chart(by_stock.assign(rate_pct=100 * by_stock.rate), x="stock", y="deadwood",
                      value="rate_pct", title="Undercut rate (%) by deadwood and stock left",
                      value_label="undercut rate (%)", x_label="Cards left in the stock",
                      y_label="Knocker deadwood (points)", unit="knocks"),
        "undercut_by_deadwood_stock", t["undercut_by_deadwood_stock"],
        "undercut_by_deadwood_stock"))
    matrix = t["threshold_matrix"]
    sections.append(Section(
        "Threshold against threshold",
        "Mean points per hand of the row player's threshold against the column player's "
        "(paired duplicate deals).",
        heatmap_chart(matrix, x="threshold_b", y="threshold_a", value="mean",
                      title="Points per hand: threshold a against threshold b",
                      value_label="points per hand for a", diverging=True,
                      x_label="Opponent's knock threshold", y_label="Own knock threshold",
                      unit="deals"),
        "threshold_matrix", matrix, "threshold_matrix"))
    sections.append(Section(
        "How hands end", "Outcome shares for `simple` against `simple`.",
        outcome_mix_chart(t["outcome_mix"]), "outcome_mix", t["outcome_mix"], "outcome_mix"))
    sections.append(Section(
        "Hand length", "Draws per hand (both players, a taken upcard included).",
        hand_length_chart(t["hand_length"]), "hand_length", t["hand_length"], "hand_length"))
    return sections


def strategies_sections(result: StudyResult) -> list[Section]:
    """Sections of the ``strategies`` study."""
    t = result.tables
    return [
        Section("Strategies against opponents",
                "Paired points per hand of each strategy against each opponent.",
                heatmap_chart(t["strategy_matrix"], x="opponent", y="strategy", value="mean",
                              title="Points per hand by strategy and opponent",
                              value_label="points per hand", diverging=True,
                              fmt="{:+.2f}", x_label="Opponent", y_label="Strategy",
                              unit="deals"),
                "strategy_matrix", t["strategy_matrix"], "strategy_matrix"),
        Section("Outcome mix by pairing", "How hands end for each pairing.",
                outcome_mix_chart(t["outcome_mix"]), "strategy_outcomes", t["outcome_mix"],
                "strategy_outcomes"),
    ]


def variants_sections(result: StudyResult) -> list[Section]:
    """Sections of the ``variants`` study."""
    t = result.tables
    return [
        Section("Rule variants", "`simple` against `simple` under each rules preset.",
                variant_chart(t["variant_comparison"]), "variant_comparison",
                t["variant_comparison"], "variant_comparison"),
        Section("Games to 100", "memory2 against simple, modern rules.", None, None,
                t["game_summary"], "game_summary"),
    ]


def stored_sections(result: StudyResult) -> list[Section]:
    """Sections of a report on a stored run."""
    t = result.tables
    by_stock = _stock_order(t["undercut_by_deadwood_stock"])
    return [
        Section("Expected points per hand", "Mean points per hand for each seat and the "
                "difference, 95% intervals.", None, None, t["expected_points"],
                "expected_points"),
        Section("How hands end", "Outcome shares.", outcome_mix_chart(t["outcome_mix"]),
                "outcome_mix", t["outcome_mix"], "outcome_mix"),
        Section("How often a knock is undercut", "Non-gin knocks of both seats.",
                undercut_chart(t["undercut_by_deadwood"]), "undercut_by_deadwood",
                t["undercut_by_deadwood"], "undercut_by_deadwood"),
        Section("Undercut rate by deadwood and stock left", "Both seats' knocks.",
                heatmap_chart(by_stock.assign(rate_pct=100 * by_stock.rate), x="stock",
                              y="deadwood", value="rate_pct",
                              title="Undercut rate (%) by deadwood and stock left",
                              value_label="undercut rate (%)",
                              x_label="Cards left in the stock",
                              y_label="Knocker deadwood (points)", unit="knocks"),
                "undercut_by_deadwood_stock", t["undercut_by_deadwood_stock"],
                "undercut_by_deadwood_stock"),
        Section("Hand length", "Draws per hand.", hand_length_chart(t["hand_length"]),
                "hand_length", t["hand_length"], "hand_length"),
    ]


SECTIONS = {"knock": knock_sections, "strategies": strategies_sections,
            "variants": variants_sections, "stored": stored_sections}
TITLES = {"knock": "When should I knock?", "strategies": "Which strategy is better?",
          "variants": "How do the rule sets compare?", "stored": "A stored run"}


def report_spec(results: Sequence[StudyResult]) -> ReportSpec:
    """One report for one or more studies: their answers first, then their evidence."""
    sections: list[Section] = []
    methods: dict[str, str] = {}
    for result in results:
        sections += SECTIONS[result.name](result)
        methods.update({f"{result.name}: {k}": v for k, v in result.methods.items()})
    title = TITLES[results[0].name] if len(results) == 1 else "ginsim strategy report"
    answer = "\n\n".join(r.answer for r in results)
    return ReportSpec(title=title, answer=answer, sections=sections, methods=methods,
                      subtitle="gin rummy strategy lab: simulated evidence with 95% intervals")


def write_report(results: Sequence[StudyResult], out_dir: str | Path, svg: bool = False
                 ) -> dict[str, Path]:
    """Build and write the report of ``results`` into ``out_dir``."""
    return build_report(report_spec(results), out_dir, svg=svg)
