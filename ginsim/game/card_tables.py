"""Lookup tables the kernels read, built once per set of card values.

One int16 array holds, for every 13-bit suit mask, the deadwood value of those cards
(``T_SUM``) and the rank of the card that a discard would shed first (``T_TOP``: the
highest value, then the highest rank), followed by the value of each rank
(``T_RANK_VALUE``), the run shape (``T_WRAP``: 1 when runs turn the corner, K-A-2)
and, per suit mask, the shedding key of its top card (``T_TOP_KEY``: value * 64 +
rank, -1 when empty). Four lookups give the value of any hand, or its top card.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .cards import N_RANKS
from .rules import Rules

SUIT_BITS = 1 << N_RANKS  # 8192 masks of one suit
T_SUM = 0
T_TOP = SUIT_BITS
T_RANK_VALUE = 2 * SUIT_BITS
T_WRAP = T_RANK_VALUE + N_RANKS
T_TOP_KEY = T_WRAP + 1
T_SIZE = T_TOP_KEY + SUIT_BITS
KEY_VALUE = 64  # a shedding key is value * KEY_VALUE + card index (index < 64)


@lru_cache(maxsize=32)
def _tables_for(rank_values: tuple[int, ...], run_wrap: bool) -> np.ndarray:
    values = np.array(rank_values, dtype=np.int64)
    masks = np.arange(SUIT_BITS)
    bits = (masks[:, None] >> np.arange(N_RANKS)[None, :]) & 1
    sums = bits @ values
    # Key = value * 16 + rank: the highest key is the highest value, then highest rank.
    keys = np.where(bits == 1, values[None, :] * 16 + np.arange(N_RANKS)[None, :], -1)
    top = np.where(masks == 0, -1, keys.argmax(axis=1))
    out = np.empty(T_SIZE, dtype=np.int16)
    out[T_SUM:T_SUM + SUIT_BITS] = sums
    out[T_TOP:T_TOP + SUIT_BITS] = top
    out[T_RANK_VALUE:T_WRAP] = values
    out[T_WRAP] = int(run_wrap)
    top_values = np.where(masks == 0, 0, values[np.maximum(top, 0)])
    out[T_TOP_KEY:T_TOP_KEY + SUIT_BITS] = np.where(masks == 0, -1, top_values * KEY_VALUE + top)
    out.setflags(write=False)
    return out


def card_tables(rules: Rules | None = None) -> np.ndarray:
    """The read-only int16 lookup array for the rules' card values and run shape."""
    rules = rules or Rules()
    return _tables_for(tuple(int(v) for v in rules.rank_values()), rules.run_wrap)

