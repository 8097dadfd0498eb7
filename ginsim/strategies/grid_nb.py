"""The knock grid's one cell definition (layout in :mod:`ginsim.strategies.params`):
the stock bucket of a stock count and the cell of a knock decision, for kernels and,
as lookup tables, for the Python layer."""

import numpy as np

from ..game._jit import jit
from .params import GRID_BUCKET_WIDTH, GRID_BUCKETS, GRID_DEADWOOD, GRID_TAKEN

MAX_STOCK = 52


@jit
def grid_bucket_nb(stock_left):
    """The knock grid's stock bucket (0 = the deepest stock, play order)."""
    return GRID_BUCKETS - 1 - min(max(stock_left, 0) // GRID_BUCKET_WIDTH, GRID_BUCKETS - 1)


@jit
def grid_cell_nb(deadwood, stock_left, takes):
    """The knock grid's cell of a knock at ``deadwood`` (1 or more) with ``stock_left``
    cards in the stock after the opponent has taken ``takes`` cards from the pile."""
    return (grid_bucket_nb(stock_left) * GRID_DEADWOOD + min(deadwood, GRID_DEADWOOD) - 1) * (
        GRID_TAKEN) + min(takes, GRID_TAKEN - 1)


def grid_cells(deadwood: np.ndarray, stock_left: np.ndarray, takes: np.ndarray) -> np.ndarray:
    """:func:`grid_cell_nb` over arrays of decisions (deadwood 1 or more)."""
    table = np.array([[[grid_cell_nb(d, s, t) for t in range(GRID_TAKEN)]
                       for s in range(MAX_STOCK + 1)] for d in range(GRID_DEADWOOD + 1)])
    return table[np.clip(deadwood, 1, GRID_DEADWOOD), np.clip(stock_left, 0, MAX_STOCK),
                 np.clip(takes, 0, GRID_TAKEN - 1)]


def bucket_range(bucket: int, deepest: int = 31) -> tuple[int, int]:
    """Stock-left range ``(low, high)`` of grid bucket ``bucket`` over the stock counts
    a decision can see (0 to ``deepest``)."""
    stocks = [s for s in range(deepest + 1) if grid_bucket_nb(s) == bucket]
    return min(stocks), max(stocks)
