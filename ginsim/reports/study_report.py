"""Turn study results (``ginsim.analysis.studies``) into a report: the answer and its knock
card first, then charts, readings, tables, the rules in force, a glossary and the
methods, written by :func:`ginsim.reports.builder.build_report`.

The rules are described in full in docs/rules.md in the ginsim repository.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..analysis.knock.knock_chart import MIN_CELL
from ..analysis.studies import StudyResult
from ..game.rulebook.rules_in_words import rules_words
from ..game.rules import Rules
from ..number_text import format_percent, signed
from .builder import ReportSpec, Section, build_report
from .card_chart import card_figure, card_note, card_panels
from .charts import (
    hand_length_chart,
    outcome_mix_chart,
    threshold_chart,
    undercut_chart,
    variant_chart,
)
from .game_score import game_score_section
from .headline import SPLIT_TITLE, split_section
from .heatmap import DEADWOOD_AXIS, STOCK_AXIS, heatmap_chart
from .style import append_caption
from .text import header, people_table
from .words import GLOSSARY, RULE_BOOK, players_section, rules_table


def _cells(count: int) -> str:
    return f"{count} cell" if count == 1 else f"{count} cells"


def _exploit_lead(r, sweep, mirrors: tuple[str, ...], card_play: str | None = None) -> str:
    """What the best fixed threshold against one opponent does, in words built from the
    sweep (no claim about the opponent that the numbers do not show); ``mirrors`` names
    the opponents that play alike with the highest threshold (the study found them)."""
    first = sweep[(sweep.opponent == r.opponent) & (sweep.threshold == sweep.threshold.max())]
    first_share = first.opponent_undercut_rate.iloc[0] if len(first) else float("nan")
    top = int(sweep.threshold.max())
    if r.best_threshold == top:
        text = (f"Against `{r.opponent}` no lower threshold beats `simple:knock={top}` "
                f"(knocking at every chance)")
        if r.opponent in mirrors:
            text += ", which is the mirror match: 0 points by construction, not a finding."
            return text
        return text + f": it nets {signed(r.mean)} points per hand (95% CI {signed(r.low)} " \
                      f"to {signed(r.high)})."
    plan = ("wait for gin, never knock with deadwood left" if r.best_threshold == 0 else
            f"knock at deadwood {r.best_threshold} or less")
    text = (f"This section exploits a fixed opponent; it is not advice against a player who "
            f"adapts. Against `{r.opponent}` the best fixed threshold for `simple`'s card "
            f"play is {r.best_threshold} ({plan}): it undercut "
            f"{format_percent(r.opponent_undercut_rate)} of `{r.opponent}`'s knocks, against "
            f"{format_percent(first_share)} for `simple:knock={top}`, and nets {signed(r.mean)} "
            f"points per hand (95% CI {signed(r.low)} to {signed(r.high)}), "
            f"{r.mean - r.runner_up_mean:.2f} more than threshold {r.runner_up}.")
    eq = getattr(r, "equilibrium_mean", float("nan"))
    if np.isfinite(eq):
        play = f"`{card_play}` card play" if card_play else "its own card play"
        text += (f" On the same deals the equilibrium knock card, played with {play} (not "
                 f"`simple`'s), nets {signed(eq)} against `{r.opponent}`; \"{SPLIT_TITLE}\" "
                 "splits that into knocking and card play.")
    return text


def knock_sections(result: StudyResult) -> list[Section]:
    """Sections of the ``knock`` study."""
    t = result.tables
    sweep = t["threshold_sweep"]
    opponent = sweep.opponent.iloc[0]
    # The study's baseline run: the highest threshold against the first opponent.
    knocker = f"simple:knock={int(sweep.threshold.max())}"
    headline = split_section(t.get("value_split"))
    card_play = result.advice.card_play if result.advice is not None else None
    by_score = game_score_section(result)
    return [
        *([headline] if headline is not None else []),
        *([by_score] if by_score is not None else []),
        *_exploit_sections(t["best_response"], sweep, result.mirrors, card_play),
        Section("Expected points by knock threshold",
                "Each line is `simple:knock=t` (knock at deadwood t or less) against one "
                "fixed opponent over the same duplicate deals; the star marks the best "
                "threshold." + _paired_line(sweep),
                threshold_chart(sweep, title="Expected points per hand of simple:knock=t "
                                             "against each opponent"), "threshold_sweep",
                _with_deals(sweep), "threshold_sweep"),
        _decision_chart_section(t["knock_chart"], opponent, result),
        _undercut_section(t["undercut_by_deadwood"], knocker, opponent),
        _undercut_stock_section(t["undercut_by_deadwood_stock"],
                                f"Knocks by `{knocker}` against `{opponent}`: later knocks "
                                "face opponents who have had more draws to bring their "
                                "deadwood down.", f": {knocker} vs {opponent}"),
        _matrix_section(t["threshold_matrix"]),
        Section("How hands end", _counted(f"Outcome shares for `{knocker}` against "
                                          f"`{opponent}`.", t["outcome_mix"]),
                outcome_mix_chart(t["outcome_mix"]), "outcome_mix", t["outcome_mix"],
                "outcome_mix", n_unit=_unit(t["outcome_mix"], "hands in all")),
        Section("Hand length", _counted("Draws per hand (both players, a taken upcard "
                                        "included).", t["hand_length"]),
                hand_length_chart(t["hand_length"], title=f"How long hands last: {knocker} "
                                                          f"vs {opponent}"),
                "hand_length", t["hand_length"], "hand_length"),
    ]


def _exploit_sections(best, sweep, mirrors: tuple[str, ...], card_play: str | None = None
                      ) -> list[Section]:
    """One section per opponent: the best fixed threshold against it."""
    sections = []
    for r in best.itertuples():
        row = best[best.opponent == r.opponent]
        shown = people_table(row.drop(columns=[c for c in ("runner_up_mean",
                                                           "equilibrium_mean")
                                               if c in row.columns]))
        sections.append(Section(f"Exploit: the best fixed threshold against `{r.opponent}`",
                                _exploit_lead(r, sweep, mirrors, card_play), table=row,
                                shown=shown,
                                table_name=f"exploit_{r.opponent}".replace(":", "_")
                                .replace("=", "_").replace(",", "_")))
    return sections


def _decision_chart_section(chart, opponent: str, result: StudyResult) -> Section:
    """The counterfactual knock chart: knock now or wait a turn, cell by cell."""
    trusted = chart[chart.n >= MIN_CELL]
    advice = result.advice
    differs = (f" This chart is about `simple` against the fixed `{opponent}` bot; the knock "
               f"card above is the equilibrium among players with `{advice.card_play}` card "
               "play, so the two differ where their opponents do." if advice is not None
               and advice.exploits is None else "")
    return Section(
        f"Knock now or wait a turn? `simple` against `{opponent}` (counterfactual chart)",
        f"At every point where `simple` could knock against `{opponent}`, the hand was played "
        f"on twice from the same cards: knocking now, and waiting one turn (then knocking as "
        f"`simple` does). Blue cells favour knocking, red cells waiting; "
        f"{_cells(int((trusted.verdict == 'knock').sum()))} clearly favour knocking, "
        f"{int((trusted.verdict == 'wait').sum())} waiting. "
        f"Hatched cells are not distinguishable from 0; cells with fewer than {MIN_CELL} "
        f"decisions are grey and cross-hatched, do not set the colours and read \"too few\" "
        f"in the table. {result.notes.get('chart_words', '')}"
        + differs,
        heatmap_chart(chart, x="stock", y="deadwood", value="gain",
                      title=f"Gain of knocking now over waiting one turn: simple vs {opponent}",
                      value_label="points per decision", diverging=True, fmt="{:+.1f}",
                      x_label=STOCK_AXIS, y_label=DEADWOOD_AXIS, unit="decisions",
                      min_n=MIN_CELL, show_n=True),
        "knock_chart", chart, "knock_chart", n_unit="decisions", min_n=MIN_CELL)


def _counted(text: str, table) -> str:
    """A section's text and, as its own paragraph, the line of how many deals stand
    behind its table and how they count (the analysis table's ``attrs["basis"]``)."""
    basis = str(table.attrs.get("basis", "")) if table is not None else ""
    return f"{text}\n\nSample: {basis}" if basis else text


def _unit(table, unit: str) -> str:
    """What a table's ``n`` counts: "distinct" ones when each mirrored deal counted once."""
    return f"distinct {unit}" if table.attrs.get("mirrored") else unit


def _paired_line(table) -> str:
    """The paragraph of how many deals stand behind a table of paired comparisons
    (``n`` hands each: every deal twice)."""
    if table is None or table.empty or "n" not in table.columns:
        return ""
    sizes = sorted({int(n) // 2 for n in table["n"].dropna()})
    if not sizes:
        return ""
    deals = f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,} to {sizes[-1]:,}"
    return (f"\n\nSample: {deals} distinct deals per comparison, each played twice with the "
            "seats swapped; the intervals are over deals (each deal's mean of its two hands).")


def _with_deals(table):
    """A table of paired comparisons with a ``deals`` column after ``n`` (its hands: every
    deal played twice)."""
    if "n" not in table.columns or "deals" in table.columns:
        return table
    out = table.copy()
    out.insert(out.columns.get_loc("n") + 1, "deals", out["n"] // 2)
    return out


def _knocks_counted(row, table) -> str:
    """"19,696 distinct knocks" or "39,392 knocks on 20,113 deals": a row's sample."""
    if table.attrs.get("mirrored"):
        return f"{int(row.n):,} distinct knocks, one per deal"
    if "deals" in table.columns and np.isfinite(row.deals) and row.deals < row.n:
        return f"{int(row.n):,} knocks on {int(row.deals):,} distinct deals"
    return f"{int(row.n):,} knocks"


def _undercut_section(under, knocker: str, opponent: str) -> Section:
    """How often the baseline's knocks are undercut, by the knocker's deadwood."""
    worst = under.loc[under.rate.idxmax()]
    return Section(
        "How often a knock is undercut",
        _counted(f"Of knocks by `{knocker}` against `{opponent}`, the undercut rate climbs "
                 f"with the knocker's deadwood, to {format_percent(worst.rate)} at "
                 f"{int(worst.deadwood)} (95% CI {format_percent(worst.low)} to "
                 f"{format_percent(worst.high)}, "
                 f"{_knocks_counted(worst, under)}).", under),
        undercut_chart(under, title=f"Undercut rate by knocker deadwood: {knocker} vs "
                                    f"{opponent}", min_n=MIN_CELL),
        "undercut_by_deadwood", under, "undercut_by_deadwood", n_unit=_unit(under, "knocks"),
        min_n=MIN_CELL)


def _matrix_section(matrix) -> Section:
    """Threshold against threshold, each pair once."""
    upper = matrix[matrix.threshold_a < matrix.threshold_b]
    return Section(
        "Threshold against threshold",
        "Mean points per hand of the row player's knock threshold against the column "
        "player's, both with `simple`'s card play (paired duplicate deals). Each pair is "
        "shown once: the other half of the matrix is the same numbers with the sign "
        "flipped, and a threshold against itself is a mirror match (0)."
        + _paired_line(matrix),
        heatmap_chart(upper, x="threshold_b", y="threshold_a", value="mean",
                      title="Points per hand: own threshold against the opponent's",
                      value_label="points per hand for the row player", diverging=True,
                      fmt="{:+.2f}", x_label="Opponent's knock threshold",
                      y_label="Own knock threshold", unit="hands", min_n=MIN_CELL,
                      missing="each pair is shown once (the other half has the sign "
                              "flipped; the diagonal is a mirror match)"),
        "threshold_matrix", _with_deals(upper), "threshold_matrix")


def _undercut_stock_section(table, text: str, players: str = "") -> Section:
    return Section(
        "Undercut rate by deadwood and stock left", _counted(text, table),
        heatmap_chart(table.assign(rate_pct=100 * table.rate), x="stock", y="deadwood",
                      value="rate_pct",
                      title=f"Undercut rate (%) by deadwood and stock left{players}",
                      value_label="undercut rate (%)",
                      x_label=STOCK_AXIS, y_label=DEADWOOD_AXIS, unit="knocks",
                      min_n=MIN_CELL),
        "undercut_by_deadwood_stock", table, "undercut_by_deadwood_stock",
        n_unit=_unit(table, "knocks"), min_n=MIN_CELL)


def strategies_sections(result: StudyResult) -> list[Section]:
    """Sections of the ``strategies`` study."""
    t = result.tables
    return [
        Section("Strategies against opponents",
                "Paired points per hand of each strategy against each opponent, on the same "
                "duplicate deals. A strategy against one that plays alike is a mirror match "
                "(0 by construction) and is left out (grey)." + _paired_line(
                    t["strategy_matrix"]),
                heatmap_chart(t["strategy_matrix"], x="opponent", y="strategy", value="mean",
                              title="Points per hand by strategy and opponent",
                              value_label="points per hand", diverging=True,
                              fmt="{:+.2f}", x_label="Opponent", y_label="Strategy",
                              unit="hands", min_n=MIN_CELL,
                              missing="a mirror match (0 by construction)"),
                "strategy_matrix", _with_deals(t["strategy_matrix"]), "strategy_matrix"),
        Section("Outcome mix by pairing", "How hands end for each pairing, on the same "
                "duplicate deals; `Deals` is how many stand behind each pairing's shares "
                "(intervals treat a deal's two hands as one cluster).",
                outcome_mix_chart(t["outcome_mix"]), "strategy_outcomes", t["outcome_mix"],
                "strategy_outcomes", n_unit="hands in all"),
    ]


def variants_sections(result: StudyResult) -> list[Section]:
    """Sections of the ``variants`` study."""
    t = result.tables
    return [
        Section("Rule variants", _counted("`simple` against `simple` under each rules "
                                          "preset.", t["variant_comparison"]),
                variant_chart(t["variant_comparison"]), "variant_comparison",
                t["variant_comparison"], "variant_comparison"),
        Section("Games to 100", "`memory2` against `simple`, modern rules.", None, None,
                t["game_summary"], "game_summary"),
    ]


def stored_sections(result: StudyResult) -> list[Section]:
    """Sections of a report on a stored run."""
    t = result.tables
    return [
        Section("Expected points per hand", _counted(
                    "Mean points per hand for each seat and the difference, 95% intervals.",
                    t["expected_points"]), None, None, t["expected_points"],
                "expected_points", n_unit=_unit(t["expected_points"], "hands")),
        Section("How hands end", _counted("Outcome shares.", t["outcome_mix"]),
                outcome_mix_chart(t["outcome_mix"]), "outcome_mix", t["outcome_mix"],
                "outcome_mix", n_unit=_unit(t["outcome_mix"], "hands in all")),
        Section("How often a knock is undercut", _counted("Non-gin knocks of both seats.",
                                                          t["undercut_by_deadwood"]),
                undercut_chart(t["undercut_by_deadwood"], min_n=MIN_CELL),
                "undercut_by_deadwood", t["undercut_by_deadwood"], "undercut_by_deadwood",
                n_unit=_unit(t["undercut_by_deadwood"], "knocks"), min_n=MIN_CELL),
        _undercut_stock_section(t["undercut_by_deadwood_stock"], "Both seats' knocks."),
        Section("Hand length", _counted("Draws per hand.", t["hand_length"]),
                hand_length_chart(t["hand_length"]), "hand_length", t["hand_length"],
                "hand_length"),
    ]


SECTIONS = {"knock": knock_sections, "strategies": strategies_sections,
            "variants": variants_sections, "stored": stored_sections}
STUDY_NAMES = {"knock": "Knock study", "strategies": "Strategies study",
               "variants": "Variants study", "stored": "Stored run"}
TITLES = {"knock": "When should I knock?", "strategies": "Which strategy is better?",
          "variants": "How do the rule sets compare?", "stored": "A stored run"}


def word_sections(rules: Rules | None, matrix=None) -> list[Section]:
    """Who the players are (with this run's figures where ``matrix``, the strategies
    study's strategy matrix, has them), the rules in force (once) and the glossary."""
    sections = [players_section(matrix)]
    if rules is not None:
        table = rules_table(rules)
        sections.append(Section(
            "Rules in force", f"Every result above was played under {rules_words(rules)}. "
            f"The whole rule book, with every variant, is `{RULE_BOOK}` in the ginsim "
            "repository.", table=table, table_name="rules",
            shown=table.rename(columns=header)))
    sections.append(Section("Glossary", "The words of gin rummy as this report uses them.",
                            terms=list(GLOSSARY)))
    return sections


def report_spec(results: Sequence[StudyResult]) -> ReportSpec:
    """One report for one or more studies: the first study's answer and knock card, then
    every study's evidence (later studies' answers lead their sections), then the rules
    in force, the glossary and the methods."""
    sections: list[Section] = []
    methods: dict[str, str] = {}
    for i, result in enumerate(results):
        sections += _study_sections(result, lead_with_answer=i > 0)
        lead = f"{STUDY_NAMES[result.name]}: " if len(results) > 1 else ""
        methods.update({f"{lead}{k}": v for k, v in result.methods.items()})
    rules = next((r.rules for r in results if r.rules is not None), None)
    sections += word_sections(rules, next((r.tables["strategy_matrix"] for r in results
                                           if "strategy_matrix" in r.tables), None))
    title = TITLES[results[0].name] if len(results) == 1 else "ginsim strategy report"
    carded = next((r for r in results if r.advice is not None), None)  # its card leads
    return ReportSpec(title=title, answer=results[0].answer, sections=sections,
                      methods=methods, card=card_figure(carded) if carded else None,
                      card_panels=card_panels(carded.advice.card) if carded else [],
                      card_note=card_note(carded) if carded else "",
                      subtitle="gin rummy strategy lab: simulated evidence with 95% intervals")


def _study_sections(result: StudyResult, lead_with_answer: bool) -> list[Section]:
    """A study's sections, each figure captioned with the rules it was played under;
    with ``lead_with_answer`` the first section opens with the study's answer."""
    part = SECTIONS[result.name](result)
    if lead_with_answer and part:
        part[0].text = f"{result.answer}\n\n{part[0].text}"
    rules_note = _rules_note(result)
    for section in part:
        if section.figure is not None and rules_note:
            append_caption(section.figure, rules_note)
    return part


def _rules_note(result: StudyResult) -> str:
    """The caption line naming a study's rules (the variants study names its own)."""
    spec = result.rules.spec() if result.rules is not None else None
    if result.name == "variants":
        return "rules: as each bar names them (a preset or a spec)" + (
            f"; games under {spec}" if spec is not None else "")
    return f"rules: {spec}" if spec is not None else ""


def write_report(results: Sequence[StudyResult], out_dir: str | Path, svg: bool = False
                 ) -> dict:
    """Build and write the report of ``results`` into ``out_dir`` (new, empty, or an
    earlier ginsim report, which is replaced whole)."""
    return build_report(report_spec(results), out_dir, svg=svg)
