"""The named rules presets as data (docs/rules.md §8): each a one-line description and
the :class:`~ginsim.game.rules.Rules` fields it changes from the defaults (``modern``)."""

from __future__ import annotations

from typing import Any

#: name -> (one-line description, field overrides)
RULES_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "modern": ("knock at 10, gin 25, undercut 25, tie is an undercut, boxes 25, "
               "shutout +100 (the default)", {}),
    "classic": ("older tables: gin bonus 20, undercut bonus 10, boxes 20, shutout doubles",
                {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20, "shutout": "double"}),
    "palace": ("gin bonus 25, undercut bonus 20, shutout +100",
               {"undercut_bonus": 20}),
    "competitive": ("modern scoring played to 250", {"target": 250}),
    "oklahoma": ("the upcard sets the knock limit (ace: gin only), a spade upcard doubles "
                 "the hand, extra boxes for undercut and gin, game to 150",
                 {"oklahoma": True, "target": 150, "oklahoma_boxes": True}),
    "straight": ("no knocking: a hand ends only by gin or a dead hand",
                 {"knock_limit": 0}),
    "tedesco": ("Oklahoma with aces high or low, runs around the corner (K-A-2), an "
                "unmelded ace costs 15",
                {"oklahoma": True, "target": 150, "run_wrap": True, "ace_value": 15}),
    "big_gin": ("modern plus big gin: 11 melded cards without a discard score 31 + D",
                {"big_gin_bonus": 31}),
    "eleven": ("modern with the eleven-card deal: no upcard, the non-dealer discards first",
               {"deal": "eleven"}),
    "last_discard": ("modern plus the 50th-card rule: the final discard may be taken to "
                     "knock", {"last_discard_rule": True}),
    "mahjong": ("Mahjong gin: no knocking, several pile cards may be taken (the lowest laid "
                "at once), melds face up on the table that either player extends, gin 25 "
                "plus the cards left in the loser's hand", {"mahjong": True}),
    "single_hand": ("modern, one hand is the whole match", {"target": 1, "shutout": "none",
                                                            "game_bonus": 0}),
    "eaai": ("the EAAI challenge framework's referee: knock at 10, gin 25, undercut 25 (a "
             "tie too), game to 100 with no game, box or shutout bonus, the defender melds "
             "before laying off, the players start hands in turn (a dead hand is dealt again)",
             {"layoff": "melds_first", "next_dealer": "alternate", "game_bonus": 0,
              "box_bonus": 0, "shutout": "none"}),
}
