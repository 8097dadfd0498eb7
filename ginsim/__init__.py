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
from .game.cards import format_cards, parse_cards
from .game.kernel_cache import check_cache_files
from .game.melds import best_discard, best_melds, deadwood, layoff_deadwood
from .game.rules import Rules
from .strategies.presets import parse_strategy

check_cache_files()  # a damaged kernel cache file compiles again, said once

if TYPE_CHECKING:
    from .analysis import load, simulate, summarize
    from .analysis.advise import advise
    from .analysis.game_stats import game_summary, game_table, game_table_frame, play_games
    from .analysis.knock.equilibrium import equilibrium
    from .analysis.knock.knock_chart import chart_table, decisions_frame, knock_chart
    from .analysis.positions import positions
    from .table.actions import Action, IllegalAction
    from .table.agents import Agent
    from .table.table import Table

#: Public name -> the module that defines it, imported on first access.
_LAZY: dict[str, str] = {
    "load": ".analysis", "simulate": ".analysis", "summarize": ".analysis",
    "advise": ".analysis.advise", "equilibrium": ".analysis.knock.equilibrium",
    "game_summary": ".analysis.game_stats", "play_games": ".analysis.game_stats",
    "game_table": ".analysis.game_stats", "game_table_frame": ".analysis.game_stats",
    "chart_table": ".analysis.knock.knock_chart", "decisions_frame": ".analysis.knock.knock_chart",
    "knock_chart": ".analysis.knock.knock_chart", "positions": ".analysis.positions",
    "Table": ".table.table", "Action": ".table.actions",
    "IllegalAction": ".table.actions", "Agent": ".table.agents",
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
           "decisions_frame", "equilibrium", "format_cards", "game_summary", "game_table",
           "game_table_frame", "knock_chart",
           "layoff_deadwood",
           "load", "parse_cards", "parse_strategy", "play_games", "positions", "simulate",
           "summarize"]
