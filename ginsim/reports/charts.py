"""Report charts: pure functions from tidy DataFrames to matplotlib Figures, and save_figure.

Every chart validates its input columns (a missing one raises ValueError naming it), uses
the Okabe-Ito palette, and writes a caption line with the sample size at the bottom.
Rates (``rate``, ``low``, ``high`` of rate charts) are fractions 0..1, shown as percent.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..game.inputs.files import write_bytes_atomic
from ..game.scoring.hand_scoring_nb import OUTCOMES
from .style import (
    DPI,
    FIGSIZE,
    MIN_FONT,
    OUTCOME_COLOURS,
    SMALLEST_TEXT_KEY,
    add_caption,
    colour,
    count_text,
    deals_text,
    error_lengths,
    interval,
    new_figure,
    ordered,
    per_group_count,
    percent_axis,
    require_columns,
    smallest_text,
    style_axes,
)

FORMATS = ("png", "svg")


def undercut_chart(df: pd.DataFrame, title: str = "Undercut rate by knocker deadwood",
                   min_n: int | None = None) -> Figure:
    """Undercut rate (line, markers, shaded 95% CI) against knocker deadwood; with
    ``min_n`` a deadwood with fewer knocks (in any series) is cross-hatched, its marker
    hollow.

    Columns: ``deadwood``, ``rate``, ``low``, ``high``, ``n`` (knocks), optional ``series``.
    """
    require_columns(df, ["deadwood", "rate", "low", "high", "n"], "undercut_chart")
    fig = new_figure()
    ax = fig.add_subplot()
    groups = _series(df)
    for i, (name, part) in enumerate(groups):
        part = part.sort_values("deadwood")
        lo, hi = interval(part["rate"], part["low"], part["high"])
        ax.fill_between(part["deadwood"], lo, hi, color=colour(i), alpha=0.2, linewidth=0)
        ax.plot(part["deadwood"], part["rate"], marker="o", markersize=4, color=colour(i),
                label=name)
        few = part[part["n"] < (min_n or 0)]
        if len(few):
            ax.plot(few["deadwood"], few["rate"], marker="o", markersize=4, linestyle="none",
                    markerfacecolor="white", color=colour(i), zorder=3, gid="too-few")
    thin = sorted(set(df.loc[df["n"] < (min_n or 0), "deadwood"]))
    for deadwood in thin:
        ax.axvspan(deadwood - 0.5, deadwood + 0.5, fill=False, hatch="xxx", linewidth=0,
                   edgecolor=(0, 0, 0, 0.3), zorder=0, gid="too-few")
    ax.set_title(title)
    ax.set_xlabel("Knocker deadwood (points)")
    ax.set_ylabel("Undercut rate (% of knocks)")
    ax.set_ylim(bottom=0)
    percent_axis(ax)
    style_axes(ax)
    if len(groups) > 1:
        ax.legend(title="Series", fontsize=MIN_FONT)
    few = (f"; cross-hatched, hollow: too few (under {min_n} knocks)" if thin else "")
    add_caption(fig, f"{count_text(df['n'].sum(), _unit(df, 'knocks'))}{deals_text(df)}; "
                     f"shaded: 95% CI{few}")
    return fig


def threshold_chart(df: pd.DataFrame,
                    title: str = "Expected points per hand by knock threshold") -> Figure:
    """Mean points per hand (95% CI band) against knock threshold, one line per opponent.

    Columns: ``threshold``, ``opponent``, ``mean``, ``low``, ``high``, ``n`` (hands). A star
    marks each opponent's best threshold (highest mean); a dashed line marks zero.
    """
    require_columns(df, ["threshold", "opponent", "mean", "low", "high", "n"],
                    "threshold_chart")
    fig = new_figure()
    ax = fig.add_subplot()
    ax.axhline(0, color="#555555", linestyle="--", linewidth=1)
    opponents = ordered(df["opponent"])
    for i, opponent in enumerate(opponents):
        part = df[df["opponent"] == opponent].sort_values("threshold")
        lo, hi = interval(part["mean"], part["low"], part["high"])
        ax.fill_between(part["threshold"], lo, hi, color=colour(i), alpha=0.2, linewidth=0)
        ax.plot(part["threshold"], part["mean"], marker="o", markersize=4, color=colour(i),
                label=f"vs {opponent}")
        best = part.loc[part["mean"].idxmax()]
        ax.plot([best["threshold"]], [best["mean"]], marker="*", markersize=15, color=colour(i),
                markeredgecolor="black", markeredgewidth=0.6, linestyle="none", zorder=5,
                gid="best-threshold")
    ax.set_title(title)
    ax.set_xlabel("Knock threshold (deadwood points)")
    ax.set_ylabel("Expected points per hand (points)")
    style_axes(ax)
    handles, labels = ax.get_legend_handles_labels()
    star = Line2D([], [], marker="*", markersize=11, color="#777777", markeredgecolor="black",
                  linestyle="none")
    ax.legend([*handles, star], [*labels, "best threshold"], title="Opponent",
              fontsize=MIN_FONT)
    add_caption(fig, f"{count_text(df['n'].sum(), 'hands')}; shaded: 95% CI; "
                     "star: best threshold per opponent")
    return fig


def outcome_mix_chart(df: pd.DataFrame, title: str = "How hands end") -> Figure:
    """Share of hands by outcome (grouped bars with 95% CI error bars) for each label.

    Columns: ``label`` (e.g. strategy pair or rules), ``outcome`` (knock, gin, big_gin,
    undercut, dead), ``rate``, ``low``, ``high``, ``n`` (hands of that label).
    """
    require_columns(df, ["label", "outcome", "rate", "low", "high", "n"], "outcome_mix_chart")
    fig = new_figure()
    ax = fig.add_subplot()
    labels = ordered(df["label"])
    outcomes = ordered(df["outcome"], OUTCOMES)
    width = 0.8 / len(outcomes)
    spare = iter(range(len(outcomes)))
    for j, outcome in enumerate(outcomes):
        part = df[df["outcome"] == outcome]
        where = np.array([labels.index(v) for v in part["label"]], dtype=float)
        ax.bar(where - 0.4 + (j + 0.5) * width, part["rate"], width=width * 0.95,
               yerr=error_lengths(part["rate"], part["low"], part["high"]),
               color=OUTCOME_COLOURS.get(outcome, colour(next(spare))),
               error_kw={"elinewidth": 0.9, "capsize": 2}, label=str(outcome).replace("_", " "))
    crowded = len(labels) * max(len(str(v)) for v in labels) > 60
    ax.set_xticks(range(len(labels)), [str(v) if crowded else str(v).replace(" vs ", "\nvs ")
                                       for v in labels],
                  rotation=90 if crowded else 0, ha="center",
                  fontsize=MIN_FONT if crowded else 10)
    ax.set_title(title)
    ax.set_xlabel("")
    ax.set_ylabel("Share of hands (%)")
    percent_axis(ax)
    style_axes(ax)
    ax.grid(False, axis="x")
    fig.legend(*ax.get_legend_handles_labels(), title="Outcome", loc="outside right center",
               fontsize=MIN_FONT)
    deals = ""
    if "deals" in df.columns and df.attrs.get("basis"):
        deals = deals_text(df)
    elif "deals" in df.columns:  # tables joined: the deals behind each label's shares
        sizes = df.groupby("label", sort=False)["deals"].max()
        if (sizes < df.groupby("label", sort=False)["n"].max()).any():
            deals = (f" from {int(sizes.min()):,} duplicate deals per label"
                     if sizes.nunique() == 1 else
                     f" from {int(sizes.min()):,}-{int(sizes.max()):,} duplicate deals "
                     "per label")
    add_caption(fig, f"{per_group_count(df, 'label', _unit(df, 'hands'), 'label')}{deals}; "
                     "error bars: 95% CI")
    return fig


def hand_length_chart(df: pd.DataFrame, title: str = "How long hands last") -> Figure:
    """Share of hands by number of draws: bars for one series, steps for several.

    Columns: ``turns`` (draws in the hand), ``count`` (hands), optional ``series``.
    """
    require_columns(df, ["turns", "count"], "hand_length_chart")
    fig = new_figure()
    ax = fig.add_subplot()
    groups = _series(df)
    notes = []
    for i, (name, part) in enumerate(groups):
        part = part.groupby("turns", as_index=False)["count"].sum().sort_values("turns")
        total = part["count"].sum()
        share = part["count"] / total if total else part["count"] * 0.0
        mean = float((part["turns"] * part["count"]).sum() / total) if total else math.nan
        if len(groups) == 1:
            ax.bar(part["turns"], share, width=0.9, color=colour(i))
            notes.append(f"{count_text(total, _unit(df, 'hands'))}{deals_text(df)}; "
                         f"mean {mean:.1f} draws")
        else:
            ax.step(part["turns"], share, where="mid", color=colour(i), label=name)
            notes.append(f"{name}: {mean:.1f} (n = {int(total):,})")
    ax.set_title(title)
    ax.set_xlabel("Draws in the hand (turns)")
    ax.set_ylabel("Share of hands (%)")
    ax.set_ylim(bottom=0)
    percent_axis(ax)
    style_axes(ax)
    if len(groups) > 1:
        ax.legend(title="Series", fontsize=MIN_FONT)
        notes = ["mean draws per hand: " + "; ".join(notes)]
    add_caption(fig, notes[0])
    return fig


def variant_chart(df: pd.DataFrame, title: str = "Rule variants compared",
                  percent: Iterable[str] | None = None) -> Figure:
    """One panel per statistic with a bar per variant and 95% CI error bars.

    Columns: ``variant``, ``statistic``, ``value``, ``low``, ``high``, ``n`` (hands).
    Statistics named in ``percent`` (default: those containing "rate") show as percent.
    """
    require_columns(df, ["variant", "statistic", "value", "low", "high", "n"], "variant_chart")
    statistics = ordered(df["statistic"])
    variants = ordered(df["variant"])
    as_percent = {s for s in statistics if "rate" in str(s)} if percent is None else set(percent)
    ncols = min(3, len(statistics))
    nrows = math.ceil(len(statistics) / ncols)
    fig = new_figure((FIGSIZE[0], max(FIGSIZE[1], 0.9 + 2.1 * nrows)))
    fig.suptitle(title)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, statistic in zip(axes, statistics, strict=False):
        part = df[df["statistic"] == statistic]
        where = [variants.index(v) for v in part["variant"]]
        ax.bar(where, part["value"], width=0.7,
               color=[colour(k) for k in where],
               yerr=error_lengths(part["value"], part["low"], part["high"]),
               error_kw={"elinewidth": 0.9, "capsize": 2})
        ax.set_title(_statistic_title(str(statistic)), fontsize=10)
        ax.set_xticks(range(len(variants)), [])
        ax.tick_params(axis="x", length=0)
        if statistic in as_percent:
            percent_axis(ax)
        style_axes(ax)
        ax.grid(False, axis="x")
    for ax in axes[len(statistics):]:
        ax.set_visible(False)
    fig.legend([Patch(color=colour(k)) for k in range(len(variants))],
               [str(v) for v in variants], title="Variant", loc="outside right center",
               fontsize=MIN_FONT)
    add_caption(fig, f"{per_group_count(df, 'variant', _unit(df, 'hands'), 'variant')}"
                     f"{deals_text(df)}; error bars: 95% CI")
    return fig


def save_figure(fig: Figure, path_without_suffix: str | Path,
                formats: Sequence[str] = ("png",), dpi: int = DPI) -> list[Path]:
    """Write ``fig`` as ``path.png`` (and ``path.svg`` when asked), atomically; return paths."""
    if isinstance(formats, str):
        formats = (formats,)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ValueError(f"save_figure: formats must be among {FORMATS}, got {tuple(formats)}")
    base = Path(path_without_suffix)
    base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in dict.fromkeys(formats):
        target = base.with_name(f"{base.name}.{fmt}")
        write_bytes_atomic(target, figure_bytes(fig, fmt, dpi))
        written.append(target)
    return written


def figure_bytes(fig: Figure, fmt: str = "png", dpi: int = DPI) -> bytes:
    """The figure rendered to PNG or SVG bytes; a PNG records its smallest text in points
    (:data:`~ginsim.reports.style.SMALLEST_TEXT_KEY`), so a page can tell how large that
    text is shown."""
    buffer = io.BytesIO()
    metadata = ({"Software": None, SMALLEST_TEXT_KEY: f"{smallest_text(fig):.2f}"}
                if fmt == "png" else {"Date": None})
    fig.savefig(buffer, format=fmt, dpi=dpi, facecolor="white", metadata=metadata)
    return buffer.getvalue()


def _unit(df: pd.DataFrame, unit: str) -> str:
    """``unit`` for a count, "distinct" when the table counted each mirrored deal once."""
    return f"distinct {unit}" if df.attrs.get("mirrored") else unit


def _series(df: pd.DataFrame) -> list[tuple[str | None, pd.DataFrame]]:
    if "series" not in df.columns:
        return [(None, df)]
    return [(str(name), df[df["series"] == name]) for name in ordered(df["series"])]


def _statistic_title(statistic: str) -> str:
    words = statistic.replace("_", " ")
    if words.startswith("rate "):
        words = words[5:] + " rate"
    return words[:1].upper() + words[1:]
