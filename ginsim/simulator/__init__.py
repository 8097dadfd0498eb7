"""Playing hands at scale: the hand loop kernel and its Python layer."""

from .engine import play_records
from .records import RECORD_DTYPE, TRACE_COLUMNS

__all__ = ["RECORD_DTYPE", "TRACE_COLUMNS", "play_records"]
