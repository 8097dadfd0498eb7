"""Words a report defines once: who the players are, the rules in force as a table (its
sentences from :mod:`ginsim.game.rulebook.rules_in_words`), and the glossary.

The full rule book is docs/rules.md in the ginsim repository.
"""

from __future__ import annotations

import pandas as pd

from ..game.rulebook.rules_in_words import rule_sentences
from ..game.rules import Rules
from ..number_text import signed
from ..strategies.players import PLAYERS, STRENGTH_DOC
from .builder import Section
from .text import header

RULE_BOOK = "docs/rules.md"

GLOSSARY = (
    ("Deadwood", "The points of the cards that are in no meld (ace 1, two to ten at face "
                 "value, jack, queen and king 10). A hand's deadwood is the lowest total over "
                 "every way of splitting it into melds."),
    ("Knock", "Ending the hand after discarding, by laying your melds down while your "
              "deadwood is at most the knock limit. You score the difference between the "
              "defender's deadwood and yours."),
    ("Gin", "Knocking with no deadwood at all. It earns the gin bonus, cannot be undercut, "
            "and the defender may not lay off."),
    ("Big gin", "All eleven cards melded right after the draw, laid down without a discard; "
                "scored only where the rules turn it on."),
    ("Undercut", "After a knock, the defender's deadwood (after layoffs) is lower than the "
                 "knocker's, or equal where a tie counts: the defender scores the difference "
                 "plus the undercut bonus."),
    ("Layoff", "The defender adding an unmelded card to one of the knocker's melds (a fourth "
               "card to a set, or extending a run), so that it no longer counts."),
    ("Box", "A bonus for each hand a player won, added when the game is over; it does not "
            "count toward the game's target."),
    ("Shutout", "Winning a game in which the loser won no hand at all; modern rules add a "
                "bonus, classic rules double the winner's total."),
    ("Dead hand", "The stock runs down to its last cards without a knock: nobody scores and "
                  "the same dealer deals again."),
)

def rules_table(rules: Rules) -> pd.DataFrame:
    """The rules in force as a table: ``rule`` (a sentence, :func:`rule_sentences`) and
    ``fields`` (the spec fields it states)."""
    return pd.DataFrame(rule_sentences(rules), columns=["rule", "fields"])


def players_table(matrix: pd.DataFrame | None = None) -> pd.DataFrame:
    """Who the five players are (:data:`~ginsim.strategies.players.PLAYERS`): ``player``,
    ``what it does``, ``how strong`` and ``measured``. A player the report's strategies
    study played (``matrix``: its strategy matrix) shows its paired points a hand from
    this run, against ``simple`` where it played it (else its first opponent); the others
    the games to 100 they won against ``simple``, as docs/strength.md measured them."""
    rows = []
    for player in PLAYERS:
        mine = (matrix[matrix["strategy"] == player.name] if matrix is not None
                and not matrix.empty else pd.DataFrame())
        if len(mine):
            row = mine.sort_values("opponent", key=lambda o: o != "simple").iloc[0]
            rows.append((player.name, player.does,
                         f"{signed(row['mean'])} points a hand against {row['opponent']} "
                         f"(95% CI {signed(row['low'])} to {signed(row['high'])}; "
                         f"{int(row['n']) // 2:,} duplicate deals)",
                         "this report: Strategies against opponents"))
        else:
            rows.append((player.name, player.does, player.strength,
                         f"{STRENGTH_DOC}: {player.command}"))
    return pd.DataFrame(rows, columns=["player", "what it does", "how strong", "measured"])


def players_section(matrix: pd.DataFrame | None = None) -> Section:
    """The report's "Who are these players" section: :func:`players_table`."""
    players = players_table(matrix)
    return Section("Who are these players", "The players this lab names most, in a sentence "
                   "each, and how strong each is: measured in this report where its "
                   f"strategies study played it, else as {STRENGTH_DOC} measured it.",
                   table=players, table_name="players", shown=players.rename(columns=header))
