"""The printable knock card: three panels (pile cards the opponent has taken: 0, 1, 2+),
each knocker deadwood (rows, 1 at the top, as in every grid of the report) x cards left
in the stock (columns in play order), each cell KNOCK, wait or either."""

from __future__ import annotations

import textwrap

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..analysis.knock.knock_card import KNOCK_AT, TAKEN_WORDS, WAIT_AT
from .style import add_caption, ordered, require_columns

FACE = {"KNOCK": "#0072B2", "wait": "#f2f2f2", "either": "#9ecae1"}
INK = {"KNOCK": "white", "wait": "#333333", "either": "#08306b"}
LEGEND = (f"KNOCK: the plan knocks at least {KNOCK_AT:.0%} of the time; wait: at most "
          f"{WAIT_AT:.0%} (keep playing for gin); either: in between, where both are worth "
          "about the same. Gin (deadwood 0) always goes down.")


def knock_card_chart(card: pd.DataFrame, title: str = "Knock card",
                     caption: str = "") -> Figure:
    """The card as a figure, one panel per ``opp_taken`` value present. Columns:
    ``opp_taken``, ``deadwood``, ``stock``, ``action`` (KNOCK, wait, either); ``caption``
    names the rules and the figures behind the card."""
    require_columns(card, ["opp_taken", "deadwood", "stock", "action"], "knock_card_chart")
    panels = [t for t in ordered(card["opp_taken"]) if (card.opp_taken == t).any()]
    xs, ys = ordered(card["stock"]), sorted(card["deadwood"].unique())
    height = 0.62 + 0.24 * len(ys)
    fig = Figure(figsize=(6.4, 1.5 + height * len(panels)), dpi=150, layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, taken in zip(axes, panels, strict=True):
        grid = card[card.opp_taken == taken].assign(stock=lambda f: f.stock.astype(object))
        action = grid.pivot(index="deadwood", columns="stock", values="action").reindex(
            index=ys, columns=xs)
        for row, dw in enumerate(ys):
            for col, stock in enumerate(xs):
                act = action.loc[dw, stock]
                act = act if isinstance(act, str) else ""
                ax.add_patch(Rectangle((col, row), 1, 1, facecolor=FACE.get(act, "white"),
                                       edgecolor="white", linewidth=1.2, gid="card-cell"))
                ax.text(col + 0.5, row + 0.5, act, ha="center", va="center", fontsize=7.5,
                        color=INK.get(act, "black"),
                        fontweight="bold" if act == "KNOCK" else "normal")
        ax.set_xlim(0, len(xs))
        ax.set_ylim(len(ys), 0)
        ax.set_xticks([i + 0.5 for i in range(len(xs))], [str(v) for v in xs], fontsize=8)
        ax.set_yticks([i + 0.5 for i in range(len(ys))], [str(v) for v in ys], fontsize=8)
        ax.xaxis.set_ticks_position("top")
        ax.tick_params(length=0)
        ax.spines[:].set_visible(False)
        ax.set_title(f"The opponent {TAKEN_WORDS[str(taken)]}", fontsize=9, loc="left")
        ax.set_ylabel("Your deadwood", fontsize=8)
    axes[-1].set_xlabel("Cards left in the stock (play runs left to right)", fontsize=8)
    fig.suptitle(title, fontsize=11, x=0.01, ha="left")
    add_caption(fig, "\n".join(textwrap.wrap(f"{caption} {LEGEND}".strip(), 110)))
    return fig


def card_panels(card: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The card as text tables for a page (one per panel): rows deadwood (1 at the top),
    columns stock ranges in play order, cells KNOCK, wait or either."""
    out = []
    xs = ordered(card["stock"])
    for taken in ordered(card["opp_taken"]):
        part = card[card.opp_taken == taken]
        if part.empty:
            continue
        grid = part.assign(stock=part.stock.astype(object)).pivot(
            index="deadwood", columns="stock", values="action").reindex(columns=xs)
        grid = grid.sort_index().fillna("")
        grid.index = [str(int(d)) for d in grid.index]
        out.append((f"The opponent {TAKEN_WORDS[str(taken)]}", grid))
    return out
