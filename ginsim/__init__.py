"""ginsim: a gin rummy strategy lab.

Exact melds and layoffs, rules as data, a numba hand simulator, and statistics with
confidence intervals. The stable public API is re-exported here. The game-level names
load at once; the analysis names (pandas, scipy, pyarrow) load on first use (PEP 562),
so ``import ginsim.game`` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .game import (
    Rules,
    best_discard,
    best_melds,
    deadwood,
    format_cards,
    layoff_deadwood,
    parse_cards,
)
from .strategies import parse_strategy

if TYPE_CHECKING:
    from .analysis import load, simulate, summarize
    from .analysis.advise import advise
    from .analysis.equilibrium import equilibrium
    from .analysis.games import game_summary, play_games
    from .analysis.knock_chart import chart_table, decisions_frame, knock_chart
    from .analysis.positions import positions
    from .simulator.agents import Agent
    from .simulator.table import Action, IllegalAction, Table

#: Public name -> the module that defines it, imported on first access.
_LAZY: dict[str, str] = {
    "load": ".analysis", "simulate": ".analysis", "summarize": ".analysis",
    "advise": ".analysis.advise", "equilibrium": ".analysis.equilibrium",
    "game_summary": ".analysis.games", "play_games": ".analysis.games",
    "chart_table": ".analysis.knock_chart", "decisions_frame": ".analysis.knock_chart",
    "knock_chart": ".analysis.knock_chart", "positions": ".analysis.positions",
    "Table": ".simulator.table", "Action": ".simulator.table",
    "IllegalAction": ".simulator.table", "Agent": ".simulator.agents",
}


def __getattr__(name: str) -> Any:
    """Load an analysis name on first use and keep it (PEP 562)."""
    if name == "rami":  # the Greek Rami package (ginsim.rami), loaded on first use
        return import_module(".rami", __name__)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ginsim' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "rami"})


__all__ = ["Action", "Agent", "IllegalAction", "Rules", "Table", "__version__", "advise",
           "best_discard", "best_melds", "chart_table",
           "deadwood",
           "decisions_frame", "equilibrium", "format_cards", "game_summary", "knock_chart",
           "layoff_deadwood",
           "load", "parse_cards", "parse_strategy", "play_games", "positions", "simulate",
           "summarize"]
