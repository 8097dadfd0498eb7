"""The knock report's headline section: what the knock card adds, split into knocking
well and card play (the knock study's ``value_split`` table), in words and as a table,
every figure with its paired 95% interval over the same deals."""

from __future__ import annotations

import math

import pandas as pd

from ..analysis.knock.value_split import ROLES
from ..number_text import MISSING, format_points, signed
from .builder import Section

SPLIT_TITLE = "What the card adds: knocking well and card play"
#: role -> how the row's player knocks, as the shown table says it
PLAYS = {"card": "knock card", "asap": "knocks at once", "gin": "waits for gin",
         "best": "threshold"}


def _ci(row: pd.Series, column: str = "mean") -> str:
    """"+4.14 (95% CI +4.02 to +4.26)": ``row``'s ``column`` and its interval (``low``
    and ``high`` for ``mean``, else ``<column>_low`` and ``<column>_high``)."""
    prefix = "" if column == "mean" else f"{column}_"
    low, high = float(row[f"{prefix}low"]), float(row[f"{prefix}high"])
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{signed(row[column])} (95% CI n/a)"
    return f"{signed(row[column])} (95% CI {signed(low)} to {signed(high)})"


def gap_words(row: pd.Series, column: str) -> str:
    """A gap per hand in words that follow its interval: "adds 2.75 (95% CI 2.62 to
    2.88)", "gives up 0.63 (...)" or "is level (+0.02, 95% CI ... holds 0)"."""
    value = float(row[column])
    low, high = float(row[f"{column}_low"]), float(row[f"{column}_high"])
    if not math.isfinite(value):
        return "was not measured on the same deals"
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"differs by {signed(value)} (95% CI n/a)"
    if low > 0:
        return f"adds {value:.2f} points per hand (95% CI {low:.2f} to {high:.2f})"
    if high < 0:
        return f"gives up {-value:.2f} points per hand (95% CI {-high:.2f} to {-low:.2f})"
    return f"is level ({signed(value)}; 95% CI {signed(low)} to {signed(high)} holds 0)"


def opponent_words(rows: pd.DataFrame) -> str:
    """One paragraph: the split against one opponent, row by row."""
    by = rows.set_index("role")
    card, asap, gin, best = (by.loc[role] for role in ROLES)
    play = f"`{card['card_play']}`"
    return (f"Against `{card['opponent']}`, on the same {int(card['deals']):,} duplicate "
            f"deals, in points per hand: the card, with {play} card play, nets {_ci(card)}. "
            f"The same {play} card play knocking as soon as it may nets {_ci(asap)}: "
            f"knocking by the card {gap_words(asap, 'edge')}. Waiting for gin it nets "
            f"{_ci(gin)}: the card {gap_words(gin, 'edge')} against that. "
            f"`{best['card_play']}`'s card play at its best fixed threshold "
            f"(`{best['player']}`) nets {_ci(best)}: over it, {play} card play knocking at "
            f"once {gap_words(asap, 'over_best')}, waiting for gin "
            f"{gap_words(gin, 'over_best')}, and with the card {gap_words(card, 'over_best')}.")


def split_section(table: pd.DataFrame | None) -> Section | None:
    """The headline section of the knock report (None without a split table)."""
    if table is None or table.empty:
        return None
    paragraphs = [opponent_words(part) for _, part in table.groupby("opponent", sort=False)]
    paragraphs.append(
        "How to read it: the card's edge over the same card play knocking at once is what "
        "knocking well is worth; what card play is worth is the gap between that card play "
        "knocking plainly (at once, or waiting for gin) and `simple`'s at its best fixed "
        "threshold (the last column). The card is "
        "an equilibrium, not the best reply to one bot: where a fixed plan such as waiting "
        "for gin nets more, it does so against a bot that never adapts. The best threshold "
        "is the best of the sweep on these very deals, so it flatters that row a little. "
        "Every interval is paired by deal, 95%.")
    return Section(SPLIT_TITLE, "\n\n".join(paragraphs), table=table,
                   table_name="value_split", shown=split_people(table))


def split_people(table: pd.DataFrame) -> pd.DataFrame:
    """The split as people read it, narrow enough for a page: who plays how, and each
    figure as "+4.13 ± 0.24" (its symmetric 95% interval; the CSV keeps both bounds)."""
    def pm(row: pd.Series, column: str) -> str:
        prefix = "" if column == "mean" else f"{column}_"
        value, low, high = (float(row[c]) for c in (column, f"{prefix}low", f"{prefix}high"))
        if not math.isfinite(value):
            return MISSING
        if not (math.isfinite(low) and math.isfinite(high)):
            return f"{format_points(value, signed=True)} (n/a)"
        return f"{format_points(value, signed=True)} ± {(high - low) / 2:.2f}"

    rows = [{"Opponent": r["opponent"], "Player": f"{r['card_play']}, {PLAYS[r['role']]}"
             + (f" {r['player'].rsplit('=', 1)[-1]}" if r["role"] == "best" else ""),
             "Points per hand (± 95% CI)": pm(r, "mean"), "Card minus this": pm(r, "edge"),
             "This minus best threshold": pm(r, "over_best"), "Deals": f"{int(r['deals']):,}"}
            for _, r in table.iterrows()]
    return pd.DataFrame(rows)
