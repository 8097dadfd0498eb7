"""Stock buckets, one notion, and the knock grid's one cell definition (layout in
:mod:`ginsim.strategies.params`).

A stock bucket is how many of some decreasing stock edges lie above a stock count:
bucket 0 is the deepest stock (at least the first edge), in play order. The strategy's
knock buckets (its ``edges`` parameter, read by ``policy_nb.stock_bucket_nb``), the
knock grid's (:data:`GRID_EDGES`, by :func:`grid_bucket_nb`), the undercut table's (the
grid's, counted from the shallow end) and the tables and charts of the analysis
(:func:`stock_buckets`, :func:`bucket_labels`) are all this.
"""

from collections.abc import Sequence

import numpy as np

from ..game._jit import jit
from .params import GRID_BUCKET_WIDTH, GRID_BUCKETS, GRID_DEADWOOD, GRID_TAKEN

MAX_STOCK = 52
DEEPEST_STOCK = 31  # the most cards a decision sees in the stock (52 - 2 hands of 10 - 1)
#: The knock grid's stock edges: buckets of GRID_BUCKET_WIDTH counts, 28-31 down to 0-3.
GRID_EDGES = tuple(range((GRID_BUCKETS - 1) * GRID_BUCKET_WIDTH, 0, -GRID_BUCKET_WIDTH))


@jit
def grid_bucket_nb(stock_left):
    """The knock grid's stock bucket (0 = the deepest stock, play order): the bucket of
    :data:`GRID_EDGES`, computed without a loop."""
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


def stock_buckets(stock_left: np.ndarray, edges: Sequence[int] = GRID_EDGES) -> np.ndarray:
    """The stock bucket of each stock count: how many of the decreasing ``edges`` lie
    above it (bucket 0 is stock >= ``edges[0]``)."""
    stock_left = np.asarray(stock_left)
    return np.sum(stock_left[:, None] < np.asarray(edges)[None, :], axis=1).astype(np.int64)


def bucket_ranges(edges: Sequence[int] = GRID_EDGES, top: int = DEEPEST_STOCK
                  ) -> list[tuple[int, int]]:
    """Stock-left range ``(low, high)`` of each bucket of ``edges``, in play order."""
    highs = [top, *[e - 1 for e in edges]]
    return list(zip([*edges, 0], highs, strict=True))


def bucket_labels(edges: Sequence[int] = GRID_EDGES, top: int = DEEPEST_STOCK) -> list[str]:
    """Text of each stock bucket in play order (most cards left first), e.g. ``28-31``."""
    return [f"{low}-{high}" for low, high in bucket_ranges(edges, top)]


def bucket_range(bucket: int) -> tuple[int, int]:
    """Stock-left range ``(low, high)`` of grid bucket ``bucket``."""
    return bucket_ranges()[bucket]
