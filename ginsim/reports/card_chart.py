"""The printable knock card: three panels (pile cards the opponent has taken: 0, 1, 2+),
each knocker deadwood (rows, 1 at the top, as in every grid of the report) x cards left
in the stock (columns in play order), each cell KNOCK, wait or either; and the words a
study's report puts with it (its title, caption and note)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..analysis.knock.knock_card import (
    EITHER_LEFT_OUT,
    KNOCK_AT,
    MEASURED_HERE,
    TAKEN_WORDS,
    WAIT_AT,
    KnockAdvice,
)
from ..analysis.knock.knock_chart import MIN_CELL
from ..analysis.studies import StudyResult
from ..game.rulebook.rules_in_words import knock_terms, rules_name
from ..game.rules import Rules
from ..number_text import signed
from .heatmap import STOCK_AXIS
from .style import DPI, FIGSIZE, MIN_FONT, add_caption, ordered, require_columns

FACE = {"KNOCK": "#0072B2", "wait": "#f2f2f2", "either": "#9ecae1"}
INK = {"KNOCK": "white", "wait": "#333333", "either": "#08306b"}
LEGEND = (f"KNOCK: the plan knocks at least {KNOCK_AT:.0%} of the time; wait: at most "
          f"{WAIT_AT:.0%} (keep playing for gin); either: in between, where both are worth "
          "about the same. Gin (deadwood 0) always goes down.")
EVEN_LEGEND = ("A number with a cell: there knocking now and waiting a turn were even "
               "within their 95% interval, over that many decisions of the card's player "
               f"against itself ({MIN_CELL} or more; fewer are too few to say).")


def knock_card_chart(card: pd.DataFrame, title: str = "Knock card",
                     caption: str = "") -> Figure:
    """The card as a figure, one panel per ``opp_taken`` value present, each with its
    columns named as cards left in the stock. Columns: ``opp_taken``, ``deadwood``,
    ``stock``, ``action`` (KNOCK, wait, either), optionally ``n`` and ``even`` (a cell
    where both are near even shows its n under its action); ``caption`` names the rules
    and the figures behind the card."""
    require_columns(card, ["opp_taken", "deadwood", "stock", "action"], "knock_card_chart")
    panels = [t for t in ordered(card["opp_taken"]) if (card.opp_taken == t).any()]
    xs, ys = ordered(card["stock"]), sorted(card["deadwood"].unique())
    height = 0.9 + 0.3 * len(ys)
    fig = Figure(figsize=(FIGSIZE[0], 1.6 + height * len(panels)), dpi=DPI,
                 layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, taken in zip(axes, panels, strict=True):
        _draw_panel(ax, card[card.opp_taken == taken], xs, ys)
        ax.set_title(f"The opponent {TAKEN_WORDS[str(taken)]}", fontsize=10, loc="left")
    fig.suptitle(title, fontsize=12, x=0.01, ha="left")
    add_caption(fig, f"{caption} {LEGEND}".strip())
    return fig


def _draw_panel(ax, grid: pd.DataFrame, xs: list, ys: list) -> None:
    """One panel's cells (action, and n where both are near even) and axes: deadwood
    down the side, cards left in the stock along the top."""
    grid = grid.assign(stock=grid.stock.astype(object))
    shown = near_even_counts(grid)
    action = grid.pivot(index="deadwood", columns="stock", values="action").reindex(
        index=ys, columns=xs)
    for row, dw in enumerate(ys):
        for col, stock in enumerate(xs):
            act = action.loc[dw, stock]
            act = act if isinstance(act, str) else ""
            ink = INK.get(act, "black")
            ax.add_patch(Rectangle((col, row), 1, 1, facecolor=FACE.get(act, "white"),
                                   edgecolor="white", linewidth=1.2, gid="card-cell"))
            n = shown.get((dw, stock))
            ax.text(col + 0.5, row + (0.36 if n is not None else 0.5), act, ha="center",
                    va="center", fontsize=MIN_FONT, color=ink,
                    fontweight="bold" if act == "KNOCK" else "normal")
            if n is not None:
                ax.text(col + 0.5, row + 0.76, f"{n:,}", ha="center", va="center",
                        fontsize=MIN_FONT, color=ink, gid="card-n")
    ax.set_xlim(0, len(xs))
    ax.set_ylim(len(ys), 0)
    ax.set_xticks([i + 0.5 for i in range(len(xs))], [str(v) for v in xs], fontsize=MIN_FONT)
    ax.set_yticks([i + 0.5 for i in range(len(ys))], [str(v) for v in ys], fontsize=MIN_FONT)
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.tick_params(length=0)
    ax.spines[:].set_visible(False)
    ax.set_xlabel(STOCK_AXIS, fontsize=MIN_FONT)
    ax.set_ylabel("Your deadwood", fontsize=MIN_FONT)


def near_even_counts(cells: pd.DataFrame) -> dict[tuple[int, str], int]:
    """{(deadwood, stock): n} of the cells where knocking and waiting were near even
    (``even``: the knock-minus-wait interval holds 0), whose n the card shows; empty
    for a card without that evidence."""
    if "even" not in cells.columns or "n" not in cells.columns:
        return {}
    even = cells[cells["even"].astype(bool) & cells["n"].notna()]
    return {(int(r.deadwood), str(r.stock)): int(r.n) for r in even.itertuples()}


def card_panels(card: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The card as text tables for a page (one per panel): rows deadwood (1 at the top),
    columns stock ranges in play order, cells KNOCK, wait or either, followed by the
    cell's n in brackets where both were near even (e.g. "either (412)")."""
    out = []
    xs = ordered(card["stock"])
    for taken in ordered(card["opp_taken"]):
        part = card[card.opp_taken == taken]
        if part.empty:
            continue
        counts = near_even_counts(part.assign(stock=part.stock.astype(str)))
        text = [f"{r.action} ({counts[(int(r.deadwood), str(r.stock))]:,})"
                if (int(r.deadwood), str(r.stock)) in counts else r.action
                for r in part.itertuples()]
        grid = part.assign(stock=part.stock.astype(object), text=text).pivot(
            index="deadwood", columns="stock", values="text").reindex(columns=xs)
        grid = grid.sort_index().fillna("")
        grid.index = [str(int(d)) for d in grid.index]
        out.append((f"The opponent {TAKEN_WORDS[str(taken)]}", grid))
    return out


def card_caption(advice: KnockAdvice) -> str:
    """The words under the card: whom it was measured against (with n; figures recorded
    with the chart say so) and what its guarantee covers. No command line: where the
    chart comes from is in the report's Methods."""
    parts = []
    for row in advice.values.itertuples():
        where = "" if row.where == MEASURED_HERE else "; as recorded with the chart"
        parts.append(f"{signed(row.mean)} points per hand against {row.opponent} (95% CI "
                     f"{signed(row.low)} to {signed(row.high)}, n = {2 * int(row.deals):,} "
                     f"hands{where})")
    worth = "Worth " + " and ".join(parts) + "." if parts else ""
    if advice.exploits:
        guarantee = f"An exploit of the fixed {advice.exploits} bot."
    else:
        bound = (f"at most {max(advice.exploitability[2], 0):.2f} points per hand (95% "
                 "bound)" if advice.exploitability is not None else "little")
        guarantee = (f"Equilibrium for {advice.card_play} card play: a player with that "
                     f"card play who adapts when to knock gains {bound} against it; where "
                     "the chart comes from: the report's Methods.")
    even = EVEN_LEGEND if near_even_counts(advice.card) else ""
    return " ".join(p for p in (worth, guarantee, even) if p)


def card_title(rules: Rules) -> str:
    """The card's title on two lines that fit the figure: the rules' name, then the
    numbers that decide knocking."""
    return f"Knock card: {rules_name(rules)}\n{knock_terms(rules)}"


def card_figure(result: StudyResult) -> Figure | None:
    """The printable knock card of a study with advice (None otherwise)."""
    advice, rules = result.advice, result.rules or Rules()
    if advice is None:
        return None
    return knock_card_chart(advice.card, title=card_title(rules),
                            caption=card_caption(advice))


def card_note(result: StudyResult) -> str:
    """The card's lines on the page: the legend, why it waits, its figures."""
    advice = result.advice
    if advice is None:
        return ""
    legend = LEGEND
    if (advice.card.action == "either").any():
        legend += " " + EITHER_LEFT_OUT
    if result.rules is not None and result.rules.oklahoma:
        legend += (" The upcard sets each hand's knock limit: rows above it do not apply "
                   "to that hand.")
    return "\n\n".join(p for p in (legend, advice.why, card_caption(advice)) if p)
