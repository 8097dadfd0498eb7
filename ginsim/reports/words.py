"""Words a report defines once: the glossary and the rules in force as a table.

The full rule book is docs/rules.md in the ginsim repository.
"""

from __future__ import annotations

import pandas as pd

from ..game.rules import Rules

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

_FIELDS = {
    "knock_limit": "Knock limit (most deadwood you may knock with)",
    "gin_bonus": "Gin bonus", "undercut_bonus": "Undercut bonus",
    "undercut_on_tie": "A tie counts as an undercut", "big_gin_bonus": "Big gin bonus",
    "stock_floor": "Cards left in the stock when the hand is dead",
    "layoff": "Defender's layoffs", "deal": "Deal", "ace_value": "Unmelded ace counts",
    "court_value": "Unmelded jack, queen, king count", "run_wrap": "Runs turn the corner (K-A-2)",
    "oklahoma": "Oklahoma: the upcard sets the knock limit",
    "double_suits": "Oklahoma: upcard suits that double the hand",
    "aces_must_gin": "Oklahoma: an ace upcard means gin only",
    "last_discard_rule": "The final discard may be taken to knock (50th card)",
    "target": "Game ends at", "next_dealer": "Next hand dealt by", "game_bonus": "Game bonus",
    "box_bonus": "Box bonus per hand won", "shutout": "Shutout",
    "shutout_bonus": "Shutout bonus", "oklahoma_boxes": "Oklahoma extra boxes",
    "team_target": "Team game (four players) ends at",
    "match_hand_points": "Multi-match: match points per hand won",
    "match_bonus": "Multi-match: match points per match won",
    "match_shutout_bonus": "Multi-match: extra match points for a shutout",
}
_CHOICES = {
    "layoff": {"optimal": "the best possible (exact minimum)",
               "melds_first": "own melds first, then layoffs",
               "layoffs_first": "layoffs first, then own melds",
               "two_orders": "the better of those two orders"},
    "deal": {"upcard": "10 cards each and an upcard", "eleven": "11 cards to the non-dealer"},
    "next_dealer": {"loser": "the loser", "winner": "the winner",
                    "alternate": "the players in turn"},
    "shutout": {"bonus": "adds the shutout bonus", "double": "doubles the winner's total",
                "none": "no extra"},
}
_OKLAHOMA_ONLY = ("double_suits", "aces_must_gin", "oklahoma_boxes")
_MAHJONG_ONLY = ("mahjong_discard_to_go_out", "mahjong_final_meld")
#: Fields of game systems no study plays (four players in teams, multi-match).
_OTHER_SYSTEMS = ("team_target", "match_hand_points", "match_bonus", "match_shutout_bonus")


def rules_table(rules: Rules) -> pd.DataFrame:
    """Every rule in force as ``rule`` / ``setting`` text: Oklahoma and Mahjong options
    only when those are on, no fields of the team and multi-match systems."""
    rows = []
    for key, value in rules.to_dict().items():
        if (key in _OKLAHOMA_ONLY and not rules.oklahoma or key in _OTHER_SYSTEMS
                or key in _MAHJONG_ONLY and not rules.mahjong):
            continue
        if key == "shutout_bonus" and rules.shutout != "bonus":
            continue
        if value is None:
            text = "off"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif key in _CHOICES:
            text = _CHOICES[key].get(value, str(value))
        elif key in ("target", "team_target"):
            text = f"{value} points"
        else:
            text = str(value)
        rows.append((_FIELDS.get(key, key.replace("_", " ")), text))
    return pd.DataFrame(rows, columns=["rule", "setting"])
