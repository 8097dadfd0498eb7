"""The per-hand record: one documented dtype shared by the kernel and the Python layer.

========================== ==== ==========================================================
column                     type meaning
========================== ==== ==========================================================
hand                       i8   hand index; its randomness is ``(seed, hand)`` alone
dealer                     i1   seat that dealt: 0 = a, 1 = b
outcome                    i1   0 knock, 1 gin, 2 big_gin, 3 undercut, 4 dead
knocker                    i1   seat that knocked (0 = a, 1 = b), -1 for a dead hand
knocker_deadwood           i2   K, the knocker's deadwood (0 for gin); -1 if dead
defender_deadwood_before_layoff i2 the defender's own best deadwood; -1 if dead
defender_deadwood          i2   D, after layoffs (= before for gin); -1 if dead
points_a, points_b         i2   points scored by seat a / b in this hand (docs/rules.md §6)
turns                      i2   draws by both players, a taken upcard included
stock_left                 i2   cards left in the stock when the hand ended
upcard_taken               b1   whether someone took the first upcard
upcard                     i1   the first upcard (-1 with ``deal = eleven``)
knock_limit                i1   this hand's knock limit (Oklahoma: set by the upcard)
multiplier                 i1   the hand's score multiplier (2 on an Oklahoma double upcard)
max_pile_take              i1   the most cards one pile take moved (Mahjong gin takes
                                several; otherwise 1 if anyone took from the pile, else 0)
pile_cards_taken           i2   cards taken from the pile by both players (the upcard too)
========================== ==== ==========================================================
"""

import numpy as np

RECORD_DTYPE = np.dtype([
    ("hand", np.int64),
    ("dealer", np.int8),
    ("outcome", np.int8),
    ("knocker", np.int8),
    ("knocker_deadwood", np.int16),
    ("defender_deadwood_before_layoff", np.int16),
    ("defender_deadwood", np.int16),
    ("points_a", np.int16),
    ("points_b", np.int16),
    ("turns", np.int16),
    ("stock_left", np.int16),
    ("upcard_taken", np.bool_),
    ("upcard", np.int8),
    ("knock_limit", np.int8),
    ("multiplier", np.int8),
    ("max_pile_take", np.int8),
    ("pile_cards_taken", np.int16),
])

#: Columns of the optional per-turn trace (int64 rows), for invariant tests and debugging.
TRACE_COLUMNS = (
    "hand", "turn", "seat", "source", "drawn", "discard", "action",
    "hand_a", "hand_b", "pile", "stock", "stock_left",
)
TRACE_WIDTH = len(TRACE_COLUMNS)
(TRACE_HAND, TRACE_TURN, TRACE_SEAT, TRACE_SOURCE, TRACE_DRAWN, TRACE_DISCARD, TRACE_ACTION,
 TRACE_HAND_A, TRACE_HAND_B, TRACE_PILE, TRACE_STOCK, TRACE_STOCK_LEFT) = range(TRACE_WIDTH)
ACTION_DISCARD = 0
ACTION_KNOCK = 1  # also Mahjong gin's going out with a final discard
ACTION_BIG_GIN = 2  # also Mahjong gin's going out without one
ACTION_DEAD = 3
ACTION_LAST_DISCARD = 4  # took the final discard at the stock floor to knock (§5.3)


def whole_deals(hand: np.ndarray) -> bool:
    """Whether per-hand rows, by their ``hand`` column, are whole duplicate deals in order:
    hands ``2k`` and ``2k + 1`` (one deal, seats swapped) next to each other."""
    hand = np.asarray(hand)
    return hand.size % 2 == 0 and not (hand[0::2] & 1).any() and bool(
        np.array_equal(hand[1::2], hand[0::2] + 1))


def per_deal_sum(values: np.ndarray) -> np.ndarray:
    """Sum of a per-hand column over each duplicate deal's two hands (rows ``2k``,
    ``2k + 1``), int64 for an integer column. Seat a's net points on a deal, the paired
    statistic of every duplicate comparison, is
    ``(per_deal_sum(points_a) - per_deal_sum(points_b)) / 2``."""
    values = np.asarray(values)
    if values.size % 2:
        raise ValueError(f"duplicate deals come in pairs of hands: expected an even number "
                         f"of hands, got {values.size}")
    if np.issubdtype(values.dtype, np.integer):
        return np.add(values[0::2], values[1::2], dtype=np.int64)
    values = values.astype(np.float64)  # points in a frame built by hand
    return values[0::2] + values[1::2]
