"""ginsim: a gin rummy strategy lab.

Exact melds and layoffs, rules as data, a numba hand simulator, and statistics with
confidence intervals. The stable public API is re-exported here.
"""

__version__ = "0.1.0"

from .analysis import load, simulate, summarize  # noqa: E402
from .analysis.advise import advise  # noqa: E402
from .analysis.equilibrium import equilibrium  # noqa: E402
from .analysis.games import game_summary, play_games  # noqa: E402
from .analysis.knock_chart import chart_table, decisions_frame, knock_chart  # noqa: E402
from .analysis.positions import positions  # noqa: E402
from .game import (  # noqa: E402
    Rules,
    best_discard,
    best_melds,
    deadwood,
    format_cards,
    layoff_deadwood,
    parse_cards,
)
from .strategies import parse_strategy  # noqa: E402

__all__ = ["Rules", "__version__", "advise", "best_discard", "best_melds", "chart_table",
           "deadwood",
           "decisions_frame", "equilibrium", "format_cards", "game_summary", "knock_chart",
           "layoff_deadwood",
           "load", "parse_cards", "parse_strategy", "play_games", "positions", "simulate",
           "summarize"]
