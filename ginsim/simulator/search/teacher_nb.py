"""The search player as a teacher: mc's hands played by mc's own hand loop, with each of
the mc seat's draws and discards written down as training rows.

Contract as :mod:`ginsim.simulator.search.mc_nb`: the hand is
:func:`~ginsim.simulator.search.mc_nb.mc_play_hand_nb`'s, given the recorder
(:mod:`ginsim.simulator.search.lessons_nb`) that mc's draw and discard fill with each
option's features and rollout means; the hands and their records equal
:func:`~ginsim.simulator.play.hand_nb.simulate_nb`'s (tests check). Rows go to a
:class:`~ginsim.simulator.search.lessons_nb.Lessons` the caller makes.
"""

import numpy as np

from ...game._jit import jit
from ...game.rng_nb import rotating_dealer_nb
from ..machine.board_nb import restart_trace_nb
from ..machine.deal_nb import seat_streams_nb, shuffle_deck_nb
from ..machine.showdown_nb import showdown_nb
from ..play.hand_nb import record_hand_nb
from .mc_nb import mc_play_hand_nb


@jit
def teacher_hands_nb(seed, start, stop, params, rules, tab, buf, lessons):
    """Play hands ``start .. stop-1`` as :func:`simulate_nb` does (not duplicate), mc's
    choices written to ``lessons``, the records to ``buf.out``."""
    hs = buf.board.hs
    restart_trace_nb(hs)
    for i in range(start, stop):
        dealer = rotating_dealer_nb(i, 2)
        shuffle_deck_nb(hs, buf.rng, seed, i)
        seat_streams_nb(buf.rng, seed, i)
        mc_play_hand_nb(buf, dealer, params, rules, tab, i, (lessons, np.int64(i)))
        showdown_nb(buf.board, rules, tab)
        record_hand_nb(buf.out, i - start, i, dealer, hs)
