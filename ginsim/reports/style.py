"""Shared look of the report charts: palette, figure size, caption line, input checks."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.ticker import FuncFormatter

from ..game.scoring.hand_scoring_nb import OUTCOMES

# Okabe-Ito, ordered for lines on white (yellow last: it is faint).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000",
           "#F0E442")
#: Each outcome's colour, in the registry's order (knock, gin, big gin, undercut, dead).
OUTCOME_COLOURS = dict(zip(OUTCOMES, ("#0072B2", "#009E73", "#56B4E9", "#D55E00", "#999999"),
                           strict=True))
#: A report figure's size in inches and its pixels per inch. Narrow enough that, shown
#: across a phone's page (:data:`PHONE_COLUMN` CSS px), text of :data:`MIN_FONT` points
#: renders at least :data:`MIN_TEXT_PX` CSS px (9 pt: 9.2 px); its PNG is 756 px wide on
#: a desktop.
FIGSIZE = (5.4, 3.9)
HEATMAP_SIZE = (5.4, 5.4)  # a grid with two lines in each cell needs taller rows
DPI = 140
MIN_FONT = 9.0  # points: the smallest text a report figure carries (see legible)
PHONE_COLUMN = 398  # CSS px an image gets on a 420 px page (padding and border off)
MIN_TEXT_PX = 9.0  # CSS px: the smallest legible text of a figure shown on that page
#: PNG text key under which a report figure records its smallest text, in points
SMALLEST_TEXT_KEY = "ginsim smallest text pt"
CAPTION_HEIGHT = 0.06  # share of the figure height kept free for the caption line


def colour(i: int) -> str:
    """The i-th palette colour (cycling)."""
    return PALETTE[i % len(PALETTE)]


def new_figure(figsize: tuple[float, float] = FIGSIZE) -> Figure:
    """A pyplot-free figure with constrained layout and room at the bottom for a caption."""
    fig = Figure(figsize=figsize, dpi=DPI, layout="constrained")
    bottom = CAPTION_HEIGHT * FIGSIZE[1] / figsize[1]
    fig.get_layout_engine().set(rect=(0.0, bottom, 1.0, 1.0 - bottom))
    return fig


def add_caption(fig: Figure, text: str) -> None:
    """Write the caption line (sample size, rules, what shading means) at the bottom left,
    wrapped to the figure's width; the layout keeps room for it."""
    caption = fig.text(0.01, 0.012, "", ha="left", va="bottom", fontsize=MIN_FONT,
                       color="#333333", gid="caption")
    _set_caption(fig, caption, text)


def append_caption(fig: Figure, text: str) -> None:
    """Add ``text`` (e.g. the rules in force) to the figure's caption line."""
    caption = next((t for t in fig.texts if t.get_gid() == "caption"), None)
    if caption is None:
        add_caption(fig, text)
    elif text not in caption.get_text().replace("\n", " "):
        _set_caption(fig, caption, f"{caption.get_text().replace(chr(10), ' ')}; {text}")


def _set_caption(fig: Figure, caption, text: str) -> None:
    width_chars = max(40, int(fig.get_figwidth() * 124 / MIN_FONT))  # 15.5 a inch at 8 pt
    lines = textwrap.wrap(text, width_chars, break_on_hyphens=False) or [""]
    caption.set_text("\n".join(lines))
    height = fig.get_figheight()
    bottom = max(CAPTION_HEIGHT * FIGSIZE[1], 0.05 + 0.17 * len(lines)) / height
    fig.get_layout_engine().set(rect=(0.0, bottom, 1.0, 1.0 - bottom))


def legible(fig: Figure, minimum: float = MIN_FONT) -> Figure:
    """``fig`` made to read on a phone: every text below ``minimum`` points raised to it,
    and a title (the figure's or an axes') that would run past the figure's edge wrapped
    onto more lines, so no image cuts its title."""
    for text in fig.findobj(Text):
        if text.get_text().strip() and text.get_fontsize() < minimum:
            text.set_fontsize(minimum)
    titles = [t for t in [*fig.texts, *(ax.title for ax in fig.axes)]
              if t.get_text().strip() and t.get_gid() != "caption"]
    for _ in range(3):  # a wrapped title moves the layout: measure again
        fig.draw_without_rendering()
        cut = [(t, _room(t, fig.bbox.width)) for t in titles]
        cut = [(t, room) for t, room in cut if room < 1]
        if not cut:
            break
        for title, room in cut:
            widest = max(len(line) for line in title.get_text().split("\n"))
            flat = " ".join(title.get_text().split())
            chars = max(16, int(widest * room * 0.95))
            title.set_text("\n".join(textwrap.wrap(flat, chars, break_on_hyphens=False)))
    return fig


def smallest_text(fig: Figure) -> float:
    """The smallest font size, in points, of the text ``fig`` shows (visible, not blank,
    in a visible axes); 0 for a figure without text."""
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_text().strip() and t.get_visible()
             and (t.axes is None or t.axes.get_visible())]
    return float(min(sizes, default=0.0))


def _room(text: Text, width: float) -> float:
    """The share of ``text``'s widest line that fits inside a figure ``width`` px wide
    from where it is anchored (1 or more: it fits)."""
    box = text.get_window_extent()
    align = text.get_horizontalalignment()
    anchor = {"left": box.x0, "right": box.x1}.get(align, (box.x0 + box.x1) / 2)
    room = {"left": width - anchor, "right": anchor}.get(align, 2 * min(anchor, width - anchor))
    return room / box.width if box.width > 0 else 1.0


def percent_axis(ax: Axes, axis: str = "y") -> None:
    """Show a 0..1 rate axis as percent."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(FuncFormatter(_percent))


def _percent(value: float, _pos: int | None = None) -> str:
    text = f"{value * 100:.1f}".rstrip("0").rstrip(".")
    return f"{'0' if text in ('-0', '') else text}%"


def style_axes(ax: Axes) -> None:
    """Light grid behind the data, no top/right spines."""
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)


def require_columns(df: pd.DataFrame, columns: Iterable[str], chart: str) -> None:
    """Raise ValueError naming the first missing column (or an empty/non-frame input)."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{chart}: expected a pandas DataFrame, got {type(df).__name__}")
    for column in columns:
        if column not in df.columns:
            have = ", ".join(map(str, df.columns)) or "none"
            raise ValueError(f"{chart}: missing column '{column}' (have: {have})")
    if df.empty:
        raise ValueError(f"{chart}: the table has no rows")


def interval(value: pd.Series, low: pd.Series, high: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Finite (low, high) bounds: an infinite or missing bound collapses onto the value."""
    v = value.to_numpy(dtype=float)
    lo = low.to_numpy(dtype=float)
    hi = high.to_numpy(dtype=float)
    lo = np.where(np.isfinite(lo), lo, v)
    hi = np.where(np.isfinite(hi), hi, v)
    return lo, hi


def error_lengths(value: pd.Series, low: pd.Series, high: pd.Series) -> np.ndarray:
    """Non-negative (2, n) error-bar lengths for ``Axes.bar(yerr=...)``."""
    lo, hi = interval(value, low, high)
    v = value.to_numpy(dtype=float)
    return np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])


def ordered(values: pd.Series, preferred: Iterable[str] = ()) -> list:
    """Distinct values: numbers sorted; a categorical in its categories' order (stock
    ranges run in play order); others in ``preferred`` order, then as they appear."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        present = set(values.dropna())
        return [v for v in values.cat.categories if v in present]
    distinct = list(pd.unique(values.dropna()))
    if pd.api.types.is_numeric_dtype(values):
        return sorted(distinct)
    first = [v for v in preferred if v in distinct]
    return first + [v for v in distinct if v not in first]


def count_text(n: int, unit: str) -> str:
    """'n = 412,305 knocks'."""
    return f"n = {int(n):,} {unit}"


def deals_text(df: pd.DataFrame) -> str:
    """How many duplicate deals stand behind a table and how they count, for a caption:
    '' for independent hands, else ' from 1,000 duplicate deals (...)'. Read from the
    table's ``attrs`` (``deals``, ``mirrored``, ``basis`` of the analysis tables)."""
    basis = str(df.attrs.get("basis", ""))
    deals = df.attrs.get("deals")
    if "played twice" not in basis or not deals:
        return ""
    how = ("each deal's two hands alike, counted once" if df.attrs.get("mirrored")
           else "clustered by deal")
    return f" from {int(deals):,} duplicate deals ({how})"


def per_group_count(df: pd.DataFrame, group: str, unit: str, noun: str) -> str:
    """Sample size when every row of a group shares the group's n (e.g. hands per label)."""
    sizes = df.groupby(group, sort=False)["n"].max()
    if sizes.nunique() == 1:
        return f"{count_text(sizes.iloc[0], unit)} per {noun}"
    return f"{count_text(sizes.sum(), unit)} ({int(sizes.min()):,}-{int(sizes.max()):,} per {noun})"
