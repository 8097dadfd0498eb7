"""Playing hands at scale: the hand loop kernel and its Python layer."""

from .machine.records import RECORD_DTYPE, TRACE_COLUMNS
from .play.engine import play_records

__all__ = ["RECORD_DTYPE", "TRACE_COLUMNS", "play_records"]
