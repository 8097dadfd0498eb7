"""Greek Rami (Ραμί): a second game in the lab, on the same runner, analysis and reports.

Two decks and jokers, 2-6 players, melds on the table, the source's scoring (dry rami,
the unopened surcharge and cap, blocked deals) and the game to 100 per opponent. The
card, rules and scoring names load at once; :func:`simulate` and the study (pandas)
load on first use, so ``import ginsim.rami`` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .game.cards import JOKER, format_hand, hand_value, parse_hand
from .game.rules import PRESETS, RamiRules, parse_rami_rules
from .game.scoring import deal_charges

_LAZY: dict[str, str] = {
    "simulate": ".play.api", "play_games": ".play.api", "load": ".play.api",
    "best_lay_down": ".game.melds", "parse_rami_strategy": ".play.strategy",
    "open_study": ".play.study",
}


def __getattr__(name: str) -> Any:
    """Load a heavier name on first use and keep it (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ginsim.rami' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = ["JOKER", "PRESETS", "RamiRules", "best_lay_down", "deal_charges", "format_hand",
           "hand_value", "load", "open_study", "parse_hand", "parse_rami_rules",
           "parse_rami_strategy", "play_games", "simulate"]
