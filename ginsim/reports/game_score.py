"""The report's section on the score (``id="game-score"``): the game table as a heat map
of the chance of winning the game, the knock card read at a few scores in words a player
says aloud, and what score-aware play is worth in games won (the numbers are
:mod:`ginsim.analysis.knock.card_by_score`'s)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from ..analysis.knock.card_by_score import ACTION_P_KNOCK, TABLE_PLAYERS, score_card_of
from ..analysis.knock.knock_card import panel_words
from ..analysis.knock.knock_chart import MIN_CELL
from ..analysis.studies import StudyResult
from ..game.rules import Rules
from ..number_text import format_percent, signed
from .builder import Section
from .heatmap import heatmap_chart
from .style import append_caption, count_text

ANCHOR = "game-score"
TITLE = "When should I knock at this score?"
#: How each score of the card by score is said (``{me}``, ``{opp}``: the points).
LEADS = {"level": "Level at {me}–{opp}", "ahead": "At {me}–{opp} up",
         "behind": "Behind {me}–{opp}", "near the target": "Both near the target at {me}–{opp}"}
ORDER = ("ahead", "behind", "near the target", "level")  # the shifts first, then the base


def game_table_chart(frame: pd.DataFrame, rules: Rules, hands: int) -> Figure:
    """The heat map of the chance that a player (rows: their score) wins the game against
    the other (columns), every 10 points, the dealer cut at random; red below 50%, blue
    above."""
    cells = frame.assign(win_pct=100 * frame["win"])[["score_a", "score_b", "win_pct"]]
    fig = heatmap_chart(cells, x="score_b", y="score_a", value="win_pct", diverging=True,
                        centre=50.0, fmt="{:.0f}",
                        title=f"Chance of winning the game to {rules.target} (%)",
                        value_label="your chance of winning the game (%)",
                        x_label="Opponent's score", y_label="Your score")
    append_caption(fig, f"{TABLE_PLAYERS[0]} against {TABLE_PLAYERS[1]}; "
                        f"{count_text(hands, 'hands')}; each cell is that exact score, "
                        "dealer cut at random")
    return fig


def _score_line(cards: pd.DataFrame, name: str, hand_words: str) -> str:
    """One score's sentence: its plan where the opponent has taken no pile card, and how
    many cells of the whole card change from the hand's card."""
    rows = cards[cards["score"] == name]
    me, opp = int(rows["me"].iloc[0]), int(rows["opp"].iloc[0])
    card = score_card_of(cards, name)
    words = panel_words(card[card.opp_taken.astype(str) == "0"])
    more = int(((rows.action == "KNOCK") & (rows.hand_action != "KNOCK")).sum())
    fewer = int(((rows.action == "wait") & (rows.hand_action != "wait")).sum())
    lead = LEADS.get(name, f"At {{me}}–{{opp}} ({name})").format(me=me, opp=opp)
    if not more and not fewer:
        return (f"{lead}: the hand's card stands, no cell's game value clearly differs "
                f"from it ({words}).")
    shifts = [f"{n} more {_cells(n, 'knock')}" for n in (more,) if n] + [
        f"{n} more {_cells(n, 'wait')}" for n in (fewer,) if n]
    same = " (as the hand's card here)" if words == hand_words else ""
    return f"{lead}: {words}{same}; {' and '.join(shifts)} than on the hand's card."


def _cells(n: int, verb: str) -> str:
    """"cell knocks" or "cells knock"."""
    return f"cell {verb}s" if n == 1 else f"cells {verb}"


def summary_table(cards: pd.DataFrame) -> pd.DataFrame:
    """Per score: the points, the chance of winning the game from there (dealer cut), the
    card's KNOCK cells on the hand's card and at this score, and the cells that change."""
    rows = []
    for name, part in cards.groupby("score", sort=False):
        me, opp = int(part["me"].iloc[0]), int(part["opp"].iloc[0])
        rows.append({"Score": name, "You": me, "Opponent": opp,
                     "Your win chance": format_percent(float(part["win_here"].iloc[0])),
                     "KNOCK cells (hand's card)": int((part.hand_action == "KNOCK").sum()),
                     "KNOCK cells (this score)": int((part.action == "KNOCK").sum()),
                     "Knock instead": int(((part.action == "KNOCK")
                                           & (part.hand_action != "KNOCK")).sum()),
                     "Wait instead": int(((part.action == "wait")
                                          & (part.hand_action != "wait")).sum())})
    return pd.DataFrame(rows)


def worth_words(worth: pd.DataFrame | None, opponent: str, games_hint: str) -> str:
    """What score-aware play is worth in games won on the same decks, or a plain line that
    this run could not measure it."""
    if worth is None or worth.empty:
        return ("What it is worth: not measured in this run. Score-aware play (a "
                "strategy's `game=1`) knocks by a score chart, and none is shipped for the "
                "card's play under these rules; where one is, the report plays "
                f"{games_hint} each way against `{opponent}` on the same decks and puts "
                "the games won here.")
    rows = worth.set_index("play")
    base, aware, gain = rows.loc["without"], rows.loc["with"], rows.loc["gain"]
    return (f"What it is worth: on the same {int(base.games):,} decks against `{opponent}`, "
            f"`{aware.spec}` (knocking by its score chart) won {format_percent(aware.rate)} "
            f"of games to the target (95% CI "
            f"{format_percent(aware.low)} to {format_percent(aware.high)}) and "
            f"`{base.spec}` {format_percent(base.rate)} ({format_percent(base.low)} to "
            f"{format_percent(base.high)}): playing by the score changes the share of games "
            f"won by {signed(100 * gain.rate)} points (95% CI {signed(100 * gain.low)} to "
            f"{signed(100 * gain.high)}, paired by deck).")


def game_score_section(result: StudyResult) -> Section | None:
    """The section ``id="game-score"`` of a knock study that made its tables for the
    score (None otherwise)."""
    t = result.tables
    if "score_card" not in t or "game_table" not in t or result.rules is None:
        return None
    cards, table, rules = t["score_card"], t["game_table"], result.rules
    hands = int(table["n"].iloc[0])
    start, low, high = table.attrs.get("from_start", (float("nan"),) * 3)
    hand_card = score_card_of(cards.assign(p_knock=cards.hand_action.map(ACTION_P_KNOCK)),
                              cards["score"].iloc[0])
    hand_words = panel_words(hand_card[hand_card.opp_taken.astype(str) == "0"])
    names = [n for n in ORDER if n in set(cards["score"])] + [
        n for n in dict.fromkeys(cards["score"]) if n not in ORDER]
    opponent = str(result.tables["threshold_sweep"].opponent.iloc[0])
    text = "\n\n".join([
        f"Games are played to {rules.target}, and the score changes what a hand's points "
        f"are worth. The heat map is the game table: the chance of winning the game from "
        f"each score, `{TABLE_PLAYERS[0]}` against `{TABLE_PLAYERS[1]}` under these rules, "
        f"from {hands:,} hands (from 0–0: {format_percent(start)}, 95% CI "
        f"{format_percent(low)} to {format_percent(high)}). `ginsim game-table` prints "
        "every score.",
        f"The card by score values the card's own decision points "
        f"({int(cards.attrs.get('decisions', 0)):,} of {cards.attrs.get('whose', 'the card')}: "
        "knock now or wait a turn, both played "
        "on from the same cards) in games: each branch's result moves the score, and the "
        "table gives the chance of winning from there. A cell changes where that chance "
        f"clearly favours the other choice (its 95% interval clear of 0, {MIN_CELL} "
        "decisions or more); elsewhere the hand's card stands. Read aloud, where the "
        "opponent has taken no card from the discard pile:",
        *(_score_line(cards, name, hand_words) for name in names),
        worth_words(t.get("score_worth"), opponent,
                    f"{int(cards.attrs.get('games', 0)):,} games"),
    ])
    return Section(TITLE, text, game_table_chart(table, rules, hands), "game_table",
                   cards, "score_card", shown=summary_table(cards),
                   n_unit="decisions", anchor=ANCHOR)
