"""Mahjong gin's legal list (``mahjong_legal_nb``) against its step: in positions of
hands played by the strategies, every listed action is one ``mahjong_step_nb`` accepts,
and a brute force over the actions of the phase (every depth, every subset of the hand
as a meld and as each table meld's extension, every card as a discard, going out)
finds the step accepting exactly the listed ones."""

import numpy as np
import pytest

from ginsim.game.card_tables import card_tables
from ginsim.game.rules import Rules
from ginsim.game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_EXTEND,
    A_MELD,
    A_PILE,
    A_STOCK,
    PH_DRAW,
    PH_OVER,
    ST_HAND,
    ST_PHASE,
    ST_PILE_LEN,
    ST_TABLE_N,
    ST_TO_MOVE,
)
from ginsim.simulator.machine.buffers import new_board
from ginsim.simulator.machine.deal_nb import seat_streams_nb, shuffle_deck_nb
from ginsim.simulator.machine.mahjong_legal_nb import MJ_MAX_LEGAL, mahjong_legal_nb
from ginsim.simulator.machine.mahjong_nb import (
    deal_mahjong_nb,
    mahjong_decide_nb,
    mahjong_step_nb,
)
from ginsim.simulator.play.engine import seat_params

RULES = Rules.preset("mahjong")
MAX_BRUTE_HAND = 11  # subsets of larger hands are left to the listed-is-accepted check


def accepted(trial, hs, seat, action, packed, tab):
    """Whether the step takes ``action`` in ``hs`` (tried on ``trial``)."""
    trial.hs[:] = hs
    return mahjong_step_nb(trial, seat, *action, packed, tab) >= 0


def phase_actions(hs, seat):
    """Every action of the phase in front of ``seat`` worth trying, as (kind, card, kept)."""
    if hs[ST_PHASE] == PH_DRAW:
        return [(A_STOCK, -1, 0)] + [(A_PILE, -1, d) for d in range(hs[ST_PILE_LEN] + 2)]
    hand = int(hs[ST_HAND + seat])
    held = [c for c in range(52) if hand >> c & 1]
    out = [(A_DISCARD, c, 0) for c in range(52)] + [(A_BIG_GIN, -1, 0)]
    if len(held) > MAX_BRUTE_HAND:
        return None
    for bits in range(1, 1 << len(held)):
        sub = sum(1 << held[i] for i in range(len(held)) if bits >> i & 1)
        out.append((A_MELD, -1, sub))
        out += [(A_EXTEND, slot, sub) for slot in range(int(hs[ST_TABLE_N]))]
    return out


def check_position(trial, hs, packed, tab):
    seat = int(hs[ST_TO_MOVE])
    trial.hs[:] = hs
    out = np.zeros((MJ_MAX_LEGAL, 3), dtype=np.int64)
    n = mahjong_legal_nb(trial, packed, tab, out)
    listed = {tuple(int(v) for v in row) for row in out[:n]}
    assert len(listed) == n  # no action listed twice
    for action in listed:
        assert accepted(trial, hs, seat, action, packed, tab), action
    tried = phase_actions(hs, seat)
    if tried is None:
        return listed, False
    good = {a for a in tried if accepted(trial, hs, seat, a, packed, tab)}
    assert good == listed
    return listed, True


@pytest.mark.parametrize("rules", [RULES, RULES.with_(mahjong_discard_to_go_out=False)])
def test_the_legal_list_is_what_the_step_accepts(rules):
    """Hands of ``simple`` against ``memory2``: at each position the legal list is the
    brute force's accepted set, and the policy's choice is on it."""
    packed, tab = rules.packed(), card_tables(rules)
    params = seat_params("simple", "memory2", rules)
    board, trial = new_board(), new_board()
    hs, rng, key = board.hs, np.zeros(3, dtype=np.uint64), np.uint64(7)
    brute = 0
    for hand_id in range(3):
        shuffle_deck_nb(hs, rng, key, hand_id)
        seat_streams_nb(rng, key, hand_id)
        deal_mahjong_nb(hs, hand_id % 2, packed, hand_id)
        step = 0
        while hs[ST_PHASE] < PH_OVER:
            seat = int(hs[ST_TO_MOVE])
            if step % 3 == 0:
                listed, full = check_position(trial, hs.copy(), packed, tab)
                brute += full
            else:
                listed = None
            kind, card, kept = mahjong_decide_nb(params, seat, board, packed, tab, rng)
            if listed is not None:
                assert (int(kind), int(card), int(kept)) in listed
            assert mahjong_step_nb(board, seat, kind, card, kept, packed, tab) >= 0
            step += 1
        trial.hs[:] = hs
        assert mahjong_legal_nb(trial, packed, tab, np.zeros((MJ_MAX_LEGAL, 3), np.int64)) == 0
    assert brute > 10
