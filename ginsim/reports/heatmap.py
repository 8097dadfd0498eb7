"""Heatmaps: :func:`heatmap_chart`, a long-format value over two axes as a colour grid,
and the two grids the ``ginsim`` commands save (:func:`knock_chart_figure`,
:func:`equilibrium_figure`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.colors import Normalize, TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.patheffects import withStroke

from .style import (
    HEATMAP_SIZE,
    MIN_FONT,
    add_caption,
    append_caption,
    count_text,
    new_figure,
    ordered,
    require_columns,
)

STOCK_AXIS = "Cards left in the stock (play runs left to right)"
DEADWOOD_AXIS = "Knocker deadwood (points)"


def heatmap_chart(df: pd.DataFrame, x: str, y: str, value: str, title: str, value_label: str,
                  diverging: bool = False, annotate: bool = True, fmt: str = "{:.1f}",
                  x_label: str | None = None, y_label: str | None = None,
                  unit: str = "hands", min_n: int | None = None, show_n: bool = False,
                  missing: str = "no data", centre: float = 0.0) -> Figure:
    """Heatmap of long-format ``value`` over ``x`` x ``y`` (one row per cell).

    ``diverging`` centres a red-blue map on ``centre`` (0 unless given); an optional
    ``verdict`` column hatches the ``unclear`` cells (numbers stay on a white box above
    the hatching); an optional ``n`` column gives the caption's sample size (in
    ``unit``), the per-cell counts when ``show_n``, and with ``min_n`` greys out and
    cross-hatches cells with fewer than ``min_n`` (the colour scale is set by the other
    cells); ``missing`` says what a grey cell without a row is. A categorical ``x`` or
    ``y`` keeps its order.
    """
    _check_cells(df, x, y, value, show_n or bool(min_n))
    xs, ys = ordered(df[x]), ordered(df[y])
    frame = df.assign(**{x: df[x].astype(object), y: df[y].astype(object)})

    def grid_of(column: str) -> pd.DataFrame:
        return frame.pivot(index=y, columns=x, values=column).reindex(index=ys, columns=xs)

    values = grid_of(value).to_numpy(dtype=float)
    counts = grid_of("n").to_numpy(dtype=float) if "n" in df.columns else None
    thin = np.zeros(values.shape, dtype=bool)
    if min_n and counts is not None:
        thin = ~np.isnan(counts) & (np.nan_to_num(counts, nan=0.0) < min_n)
    data = np.ma.masked_invalid(np.where(thin, np.nan, values))
    fig = new_figure(HEATMAP_SIZE)
    ax = fig.add_subplot()
    cmap, norm = _colour_scale(data, diverging, centre)
    image = ax.imshow(data, cmap=colormaps[cmap].with_extremes(bad="#e4e4e4"), norm=norm,
                      aspect="auto", origin="upper", interpolation="nearest")
    ax.set_xticks(range(len(xs)), [str(v) for v in xs], fontsize=MIN_FONT)
    ax.set_yticks(range(len(ys)), [str(v) for v in ys], fontsize=MIN_FONT)
    ax.set_title(title)
    ax.set_xlabel(x_label or x)
    ax.set_ylabel(y_label or y)
    fig.colorbar(image, ax=ax, label=value_label)
    unclear = np.zeros(values.shape, dtype=bool)
    if "verdict" in df.columns:
        unclear = (grid_of("verdict").to_numpy() == "unclear") & ~thin
        _hatch(ax, unclear)
    _hatch(ax, thin, "xxx", "too-few")
    if annotate:
        _annotate(ax, values, data, image, fmt, counts if show_n else None, unclear | thin)
    notes = _notes(df, unit, show_n, min_n, thin, data, missing, unclear)
    if notes:
        add_caption(fig, "; ".join(notes))
    return fig


def _check_cells(df: pd.DataFrame, x: str, y: str, value: str, needs_n: bool) -> None:
    """ValueErrors for a frame :func:`heatmap_chart` cannot draw."""
    require_columns(df, [x, y, value], "heatmap_chart")
    if needs_n and "n" not in df.columns:
        raise ValueError("heatmap_chart: show_n and min_n need an 'n' column")
    if df.duplicated([x, y]).any():
        raise ValueError(f"heatmap_chart: more than one row for some ({x}, {y}) cell")


def _colour_scale(data: np.ma.MaskedArray, diverging: bool, centre: float = 0.0
                  ) -> tuple[str, Normalize]:
    """The colour map and its scale: red-blue centred on ``centre``, or viridis over the
    range."""
    if diverging:
        limit = float(np.abs(data - centre).max()) if data.count() else 1.0
        limit = limit if limit > 0 else 1.0
        return "RdBu", TwoSlopeNorm(vcenter=centre, vmin=centre - limit,
                                    vmax=centre + limit)
    finite = data.compressed()
    low, high = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    return "viridis", Normalize(vmin=low, vmax=high if high > low else low + 1)


def _hatch(ax, cells: np.ndarray, hatch: str = "///", gid: str = "unclear") -> None:
    """Hatch the ``cells``: ``///`` the unclear verdicts, ``xxx`` those with too few."""
    for (row, col) in zip(*np.nonzero(cells), strict=True):
        ax.add_patch(Rectangle((col - 0.5, row - 0.5), 1, 1, fill=False, hatch=hatch,
                               edgecolor=(0, 0, 0, 0.3), linewidth=0, zorder=2, gid=gid))


def _notes(df: pd.DataFrame, unit: str, show_n: bool, min_n: int | None, thin: np.ndarray,
           data: np.ma.MaskedArray, missing: str, unclear: np.ndarray) -> list[str]:
    """The caption's parts: sample size, what small numbers, grey and hatching mean."""
    notes = [count_text(df["n"].sum(), unit)] if "n" in df.columns else []
    if show_n:
        notes.append("small numbers: n per cell")
    if thin.any():
        notes.append(f"grey, cross-hatched: too few (under {min_n} {unit}; not coloured)")
    if data.count() < data.size - int(thin.sum()):
        notes.append(f"grey: {missing}")
    if unclear.any():
        notes.append("hatched: unclear (95% CI includes 0)")
    return notes


def _annotate(ax, values: np.ndarray, data: np.ma.MaskedArray, image, fmt: str,
              counts: np.ndarray | None, boxed: np.ndarray) -> None:
    """Write each cell's value (and n): light text on dark cells, a white box over
    hatching, grey text on greyed-out cells."""
    masked = np.ma.getmaskarray(data)
    for row, col in zip(*np.nonzero(~np.isnan(values)), strict=True):
        value = float(values[row, col])
        if masked[row, col]:
            dark, ink = False, "#555555"
        else:
            red, green, blue, _ = image.cmap(image.norm(value))
            dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5 and not boxed[row, col]
            ink = "white" if dark else "black"
        text = fmt.format(value)
        if counts is not None and np.isfinite(counts[row, col]):
            text += f"\n{int(counts[row, col]):,}"
        box = ({"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.85,
                "linewidth": 0} if boxed[row, col] else None)
        ax.text(col, row, text, ha="center", va="center",
                fontsize=MIN_FONT, zorder=3, color=ink, bbox=box,
                linespacing=0.95,
                path_effects=[] if dark or box else [withStroke(linewidth=1.5,
                                                               foreground="white")])


def knock_chart_figure(chart: pd.DataFrame, strategy: str, opponent: str, min_cell: int,
                       rules_spec: str, score: str = "") -> Figure:
    """``ginsim knock-chart``'s figure: the gain of knocking now over waiting a turn per
    cell (:func:`~ginsim.analysis.knock.knock_chart.chart_table`), thin cells greyed out;
    with a ``score`` (``85-30``), the gain in game-win chance at that score."""
    fig = heatmap_chart(chart, x="stock", y="deadwood", value="gain", diverging=True,
                        fmt="{:+.1f}", min_n=min_cell, show_n=True,
                        title=f"Knock now minus wait a turn: {strategy} vs {opponent}"
                              + (f" at {score}" if score else ""),
                        value_label=("game-win chance, % points per decision" if score else
                                     "points per decision"), x_label=STOCK_AXIS,
                        y_label=DEADWOOD_AXIS, unit="decisions")
    append_caption(fig, f"rules: {rules_spec}")
    return fig


def equilibrium_figure(cells: pd.DataFrame, rules_spec: str, base: str, hands: int) -> Figure:
    """``ginsim equilibrium``'s figure: the knock share of each cell of the average chart
    (:attr:`~ginsim.analysis.knock.equilibrium.EquilibriumResult.chart`) where the opponent has
    taken no pile card."""
    cells = cells[cells.opp_taken == "0"].drop(columns="opp_taken")
    fig = heatmap_chart(cells.assign(p_knock=100 * cells.p_knock), x="stock", y="deadwood",
                        value="p_knock", fmt="{:.0f}", show_n=True,
                        title="Equilibrium knock chart: knock %", value_label="knock %",
                        x_label=STOCK_AXIS, y_label=DEADWOOD_AXIS, unit="decisions")
    append_caption(fig, f"opponent holds no card it took from the pile; rules: "
                        f"{rules_spec}; base {base}; {hands:,} hands per pass")
    return fig
