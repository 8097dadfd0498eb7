"""pandas layer: records to DataFrames, summaries and comparisons."""

from .api import simulate
from .frames import records_frame
from .summary import summarize

__all__ = ["records_frame", "simulate", "summarize"]
