"""The printable knock card: three panels (pile cards the opponent has taken: 0, 1, 2+),
each knocker deadwood (rows, 1 at the top, as in every grid of the report) x cards left
in the stock (columns in play order), each cell KNOCK, wait or either; and the words a
study's report puts with it (its title, caption and note)."""

from __future__ import annotations

import textwrap

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..analysis.knock.knock_answer import rules_name
from ..analysis.knock.knock_card import KNOCK_AT, MEASURED_HERE, TAKEN_WORDS, WAIT_AT, KnockAdvice
from ..analysis.studies import StudyResult
from ..game.rules import Rules
from ..number_text import signed
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


def card_caption(advice: KnockAdvice) -> str:
    """The words under the card: whom it was measured against (with n and where the
    figure comes from) and what its guarantee covers."""
    parts = []
    for row in advice.values.itertuples():
        where = "" if row.where == MEASURED_HERE else f"; {row.where}"
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
                     f"card play who adapts when to knock gains {bound} against it; from "
                     f"{advice.provenance}.")
    return f"{worth} {guarantee}".strip()


def card_figure(result: StudyResult) -> Figure | None:
    """The printable knock card of a study with advice (None otherwise)."""
    advice, rules = result.advice, result.rules or Rules()
    if advice is None:
        return None
    limit = ("knock limit from the upcard" if rules.oklahoma
             else f"knock at {rules.knock_limit} or less")
    tie = "tie = undercut" if rules.undercut_on_tie else "tie is no undercut"
    title = (f"Knock card for {rules_name(rules)}: {limit}, gin {rules.gin_bonus}, "
             f"undercut {rules.undercut_bonus}, {tie}")
    return knock_card_chart(advice.card, title=title, caption=card_caption(advice))


def card_note(result: StudyResult) -> str:
    """The card's lines on the page: the legend, why it waits, its figures."""
    advice = result.advice
    if advice is None:
        return ""
    legend = LEGEND
    if result.rules is not None and result.rules.oklahoma:
        legend += (" The upcard sets each hand's knock limit: rows above it do not apply "
                   "to that hand.")
    return "\n\n".join(p for p in (legend, advice.why, card_caption(advice)) if p)
