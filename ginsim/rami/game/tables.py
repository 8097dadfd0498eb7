"""Lookup tables the Rami kernels read, made once per rule set from :class:`RamiRules`.

``tabs`` is one int64 array: the laid value of each run position (``TB_POS + p``,
p = 1 ace low .. 14 ace high), the in-hand value of each kind (``TB_HAND + kind``), the
most a kind can count laid (``TB_MAXLAID + kind``, for search bounds) and the laid
value of each rank in a set (``TB_SET + rank``) and how many jokers a run may hold
(``TB_JPM``).
"""

from __future__ import annotations

import numpy as np

from .cards import JOKER, N_KINDS
from .rules import RamiRules

TB_POS = 0
TB_HAND = 16
TB_MAXLAID = TB_HAND + N_KINDS
TB_SET = TB_MAXLAID + N_KINDS
TB_JPM = TB_SET + 13  # jokers a meld may hold (RamiRules.jokers_per_meld)
TB_SIZE = TB_JPM + 1


def position_values(rules: RamiRules) -> list[int]:
    """Laid value of run positions 0..15 (1 = ace low counts 1, 14 = ace high)."""
    values = [0] * 16
    values[1] = 1
    for p in range(2, 11):
        values[p] = p
    for p in (11, 12, 13):
        values[p] = rules.court_value
    values[14] = rules.ace_value
    return values


def rami_tables(rules: RamiRules) -> np.ndarray:
    """The int64 lookup array of one rule set (see the module docstring)."""
    tabs = np.zeros(TB_SIZE, dtype=np.int64)
    pos = position_values(rules)
    tabs[TB_POS:TB_POS + 16] = pos
    tabs[TB_HAND:TB_HAND + N_KINDS] = rules.hand_values()
    set_values = rules.rank_values()
    tabs[TB_SET:TB_SET + 13] = set_values
    for kind in range(JOKER):
        rank = kind % 13
        laid = max(set_values[rank], pos[rank + 1], pos[14] if rank == 0 else 0)
        tabs[TB_MAXLAID + kind] = laid
    tabs[TB_MAXLAID + JOKER] = max(pos + set_values)
    tabs[TB_JPM] = rules.jokers_per_meld
    return tabs
