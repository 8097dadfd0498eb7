"""The per-deal record of Greek Rami: one row per deal and player, one documented dtype
shared by the kernels and the Python layer.

============== ==== =====================================================================
column         type meaning
============== ==== =====================================================================
deal           i8   deal index; its cards come from ``(seed, deal)`` alone
player         i1   the player's seat, 0 .. players-1 (seat 0 plays the first strategy)
players        i1   players at the table
starter        i1   the seat that moved first (the player after the dealer)
winner         i1   the seat that went out, or won the blocked deal
charge         i2   what the deal charges this player (0 for the winner)
opened         b1   whether the player had made a first lay-down
went_out       b1   whether this player went out
dry            b1   the deal ended in a dry rami (ξερό ραμί)
blocked        b1   the stock ran out (the lowest hand won)
open_turn      i2   the player's own turn (0 = first) at which it opened, -1 if never
hand_value     i2   what the cards left in the player's hand are worth
cards_left     i1   cards left in the player's hand
turns          i2   turns played in the deal (all players)
stock_left     i2   cards left in the stock at the end
discards_taken i1   top discards this player took
============== ==== =====================================================================
"""

import numpy as np

RAMI_RECORD_DTYPE = np.dtype([
    ("deal", np.int64),
    ("player", np.int8),
    ("players", np.int8),
    ("starter", np.int8),
    ("winner", np.int8),
    ("charge", np.int16),
    ("opened", np.bool_),
    ("went_out", np.bool_),
    ("dry", np.bool_),
    ("blocked", np.bool_),
    ("open_turn", np.int16),
    ("hand_value", np.int16),
    ("cards_left", np.int8),
    ("turns", np.int16),
    ("stock_left", np.int16),
    ("discards_taken", np.int8),
])

#: Per-game record: one row per game and player.
RAMI_GAME_DTYPE = np.dtype([
    ("game", np.int64),
    ("player", np.int8),
    ("players", np.int8),
    ("total", np.int32),
    ("deals", np.int16),
    ("won", np.bool_),
    ("dry_rami", np.int16),
])
