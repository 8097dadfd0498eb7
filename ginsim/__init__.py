"""ginsim: a gin rummy strategy lab.

Exact melds and layoffs, rules as data, a numba hand simulator, and statistics with
confidence intervals. The stable public API is re-exported here.
"""

__version__ = "0.1.0"

from .analysis import load, simulate, summarize  # noqa: E402
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

__all__ = ["Rules", "__version__", "best_discard", "best_melds", "deadwood", "format_cards",
           "layoff_deadwood", "load", "parse_cards", "parse_strategy", "simulate", "summarize"]
