"""pandas layer: records to DataFrames, summaries, results and stores."""

from .api import run_simulation, simulate
from .frames import records_frame
from .results import Result, load
from .summary import summarize

__all__ = ["Result", "load", "records_frame", "run_simulation", "simulate", "summarize"]
