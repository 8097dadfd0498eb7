"""The Rami report: "when should I open?" with the answer first, a printable opening
card, a chart of what waiting costs, and tables whose every number carries its rules,
sample size and 95% interval; written by the project's report builder."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ...number_text import bracketed
from ...reports.builder import ReportSpec, Section, build_report
from ...reports.style import add_caption, colour, new_figure, style_axes
from ..game.rules import RamiRules
from .study import NEVER, RamiStudy

CARD_WAIT = 6
CARD_THRESHOLD = 70


def _turn_label(value: int) -> str:
    return "never" if value >= NEVER else str(value)


def wait_chart(table: pd.DataFrame, rules: RamiRules) -> Figure:
    """Extra charge per deal of waiting for a dry rami until own turn W, against opening
    at the first chance, with 95% intervals; one line per player count."""
    waits = table[table["family"] == "wait_turns"]
    order = sorted(waits["value"].unique())
    fig = new_figure()
    ax = fig.add_subplot()
    for i, (n, group) in enumerate(waits.groupby("players")):
        group = group.set_index("value").loc[order]
        x = list(range(len(order)))
        ax.errorbar(x, group["vs_first_chance"],
                    yerr=[group["vs_first_chance"] - group["vs_low"],
                          group["vs_high"] - group["vs_first_chance"]],
                    marker="o", capsize=3, color=colour(i), label=f"{n} players")
    ax.axhline(0, color="#777777", linewidth=0.8)
    ax.set_xticks(range(len(order)), [_turn_label(v) for v in order])
    ax.set_xlabel("Wait for a dry rami until your own turn (0 = open at the first chance)")
    ax.set_ylabel("Extra charge per deal (points)")
    ax.legend(frameon=False, fontsize=8)
    style_axes(ax)
    fig.suptitle("What waiting to open costs", fontsize=11, x=0.01, ha="left")
    deals = int(waits["deals"].iloc[0])
    add_caption(fig, f"paired on {deals:,} duplicate deals per point, 95% intervals; "
                     f"rules: {rules.spec()}")
    return fig


def _cell(table: pd.DataFrame, n: int, family: str, value: int) -> pd.Series:
    rows = table[(table["players"] == n) & (table["family"] == family) &
                 (table["value"] == value)]
    return rows.iloc[0]


def opening_card(study: RamiStudy) -> Figure:
    """A printable card: per player count, the advice and what the alternatives cost."""
    table = study.table
    columns = ["players", "advice", f"wait to turn {CARD_WAIT}", "hold for dry rami",
               f"open only at {CARD_THRESHOLD}+"]
    counts = sorted(table["players"].unique())
    fig = new_figure((7.0, 1.6 + 0.42 * len(counts)))
    ax = fig.add_subplot()
    widths = [0.8, 2.2, 1.3, 1.4, 1.3]
    lefts = [sum(widths[:i]) for i in range(len(widths))]
    for c, name in enumerate(columns):
        ax.text(lefts[c] + widths[c] / 2, -0.5, name, ha="center", va="center", fontsize=8,
                fontweight="bold")
    for r, n in enumerate(counts):
        waits = table[(table["players"] == n) & (table["family"] == "wait_turns")]
        best = waits.loc[waits["charge"].idxmin()]
        wait_ok = best["value"] != 0 and best["vs_high"] < 0
        advice = (f"wait to turn {_turn_label(int(best['value']))}" if wait_ok
                  else "open at first chance")
        cells = [str(n), advice]
        for family, value in (("wait_turns", CARD_WAIT), ("wait_turns", NEVER),
                              ("open_at", CARD_THRESHOLD)):
            row = _cell(table, n, family, value)
            cells.append(f"{row['vs_first_chance']:+.1f} [{row['vs_low']:+.1f}, "
                         f"{row['vs_high']:+.1f}]")
        for c, text in enumerate(cells):
            face = "#0072B2" if c == 1 else ("#f2f2f2" if r % 2 == 0 else "#ffffff")
            ax.add_patch(Rectangle((lefts[c], r), widths[c], 1, facecolor=face,
                                   edgecolor="white", linewidth=1.5, gid="card-cell"))
            ax.text(lefts[c] + widths[c] / 2, r + 0.5, text, ha="center", va="center",
                    fontsize=7.5, color="white" if c == 1 else "#222222",
                    fontweight="bold" if c == 1 else "normal")
    ax.set_xlim(0, sum(widths))
    ax.set_ylim(len(counts), -1)
    ax.axis("off")
    fig.suptitle(f"Rami opening card: {study.rules.spec()} rules, base play `{study.base}`"
                 .replace("`", ""), fontsize=10, x=0.01, ha="left")
    add_caption(fig, f"points per deal against opening at the first chance, 95% CI; "
                     f"n = {study.deals:,} duplicate deals per cell (seed {study.seed})")
    return fig


def _shown(table: pd.DataFrame, family: str) -> pd.DataFrame:
    part = table[table["family"] == family]
    label = "wait until turn" if family == "wait_turns" else "open at"
    return pd.DataFrame({
        "players": part["players"],
        label: [_turn_label(v) for v in part["value"]] if family == "wait_turns"
        else part["value"],
        "charge per deal": [bracketed(m, lo, hi, ".1f") for m, lo, hi in
                            zip(part["charge"], part["charge_low"], part["charge_high"],
                                strict=True)],
        "vs first chance": [bracketed(m, lo, hi, "+.2f") for m, lo, hi in
                            zip(part["vs_first_chance"], part["vs_low"], part["vs_high"],
                                strict=True)],
        "P(dry rami)": [bracketed(m, lo, hi, ".1%") for m, lo, hi in
                        zip(part["p_dry"], part["p_dry_low"], part["p_dry_high"],
                            strict=True)],
        "P(caught unopened)": [bracketed(m, lo, hi, ".1%") for m, lo, hi in
                               zip(part["p_caught_unopened"], part["p_caught_low"],
                                   part["p_caught_high"], strict=True)],
        "deals": part["deals"], "rules": part["rules"]})


def rules_table(rules: RamiRules) -> pd.DataFrame:
    """The rules in force, one row per field."""
    return pd.DataFrame({"field": list(rules.to_dict()),
                         "value": [str(v) for v in rules.to_dict().values()]})


def rami_report_spec(study: RamiStudy) -> ReportSpec:
    """The whole report of one study."""
    table = study.table
    waits = Section(
        "When to open", "Each point: seat 0 waits for a dry rami until its own turn W "
        "(laying down earlier only to go out, and only while nobody has opened), the other "
        f"seats play `{study.base}`; the difference is paired on the same deals.\n\n"
        + "\n\n".join(study.lines),
        figure=wait_chart(table, study.rules), figure_name="rami_wait",
        table=table[table["family"] == "wait_turns"], table_name="rami_wait",
        shown=_shown(table, "wait_turns"))
    higher = Section(
        "Opening only above a higher total", "Seat 0 opens only with a first lay-down worth "
        "at least the threshold (the rules' minimum stays 51 for going out).",
        table=table[table["family"] == "open_at"], table_name="rami_open_at",
        shown=_shown(table, "open_at"))
    rules = Section("Rules in force", f"Greek Rami, rules `{study.rules.spec()}`.",
                    table=rules_table(study.rules), table_name="rami_rules")
    return ReportSpec(title="Greek Rami: when should I open?", answer=study.answer,
                      sections=[waits, higher, rules], methods=study.methods,
                      card=opening_card(study), card_name="rami_card",
                      subtitle="Greek Rami in the ginsim lab: simulated evidence with 95% "
                               "intervals")


def write_rami_report(study: RamiStudy, out_dir: str | Path, svg: bool = False) -> dict:
    """Write the report of ``study`` into ``out_dir`` (new, empty, or an earlier report)."""
    return build_report(rami_report_spec(study), out_dir, svg=svg)
