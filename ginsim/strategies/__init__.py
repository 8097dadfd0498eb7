"""How a player decides: the parameter layout, presets, and the policy kernel."""

from .params import PARAMETERS, default_vector
from .presets import PRESETS, Strategy, parse_strategy, strategy_vector

__all__ = ["PARAMETERS", "PRESETS", "Strategy", "default_vector", "parse_strategy",
           "strategy_vector"]
