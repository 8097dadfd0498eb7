"""Reading a hand and the public history, decision-free: which cards meld with which,
which are near, what the opponent may want. The policy kernels (:mod:`.policy_nb`) and the
expert card play (:mod:`.expert_nb`) both read these; neither imports the other's
decisions from here."""

from ..game._jit import jit, jit_inline
from ..game.bits_nb import lowest_card_nb, popcount_nb
from ..game.card_tables import T_RANK_VALUE, T_WRAP
from ..game.melds_nb import BELOW_KING, RANK_COLUMN, SUIT_MASK
from ..game.state import FULL_DECK, ST_DISCARDED, ST_PASSED, ST_PILE_MASK, ST_TAKEN
from .params import P_MEMORY

ABOVE_ACE = FULL_DECK & ~RANK_COLUMN  # every card but the aces


@jit
def can_join_meld_nb(hand, card, tab):
    """Cheap test: could ``card`` form a meld with cards of ``hand`` at all?"""
    rank = card % 13
    if popcount_nb(hand & (RANK_COLUMN << rank)) >= 2:
        return True
    shift = 13 * (card // 13)
    s = ((hand >> shift) & SUIT_MASK) | (1 << rank)
    if tab[T_WRAP] != 0:
        # Ranks rank-2 .. rank+2 around the corner, read from the suit repeated thrice.
        window = ((s | (s << 13) | (s << 26)) >> (rank + 11)) & 31
    else:
        low = max(rank - 2, 0)
        window = (s >> low) & ((1 << (rank - low + 3)) - 1)
    return (window & (window >> 1) & (window >> 2)) != 0

@jit
def run_completions_nb(m, wrap):
    """Ranks (a 13-bit mask) not in the suit mask ``m`` that would make or extend a run
    with two of its ranks (around the corner when ``wrap``)."""
    mm = m | (m << 13) | (m << 26) if wrap else m << 13
    c = ((mm << 1) & (mm << 2)) | ((mm >> 1) & (mm << 1)) | ((mm >> 1) & (mm >> 2))
    return (c >> 13) & SUIT_MASK & ~m

@jit
def set_completions_nb(hand):
    """Cards not in ``hand`` of a rank it holds at least twice."""
    a = hand & SUIT_MASK
    b = (hand >> 13) & SUIT_MASK
    c = (hand >> 26) & SUIT_MASK
    d = (hand >> 39) & SUIT_MASK
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return (pairs | (pairs << 13) | (pairs << 26) | (pairs << 39)) & ~hand

@jit
def hand_run_completions_nb(hand, wrap):
    """Run completions (see :func:`run_completions_nb`) of every suit of ``hand`` at once."""
    if wrap:
        out = 0
        for suit in range(4):
            out |= run_completions_nb((hand >> (13 * suit)) & SUIT_MASK, True) << (13 * suit)
        return out
    below = (hand << 1) & ABOVE_ACE  # card k has its suit's rank k-1 in the hand
    below2 = (below << 1) & ABOVE_ACE
    above = (hand >> 1) & BELOW_KING
    above2 = (above >> 1) & BELOW_KING
    return ((below & below2) | (below & above) | (above & above2)) & ~hand

@jit
def meld_completions_nb(hand, tab):
    """Cards not in ``hand`` that would make or extend a meld with two of its cards."""
    return hand_run_completions_nb(hand, tab[T_WRAP] != 0) | set_completions_nb(hand)

@jit
def near_cards_nb(cards, reach):
    """Cards of the same rank as some card of ``cards``, or of its suit within ``reach``."""
    up = cards
    down = cards
    out = cards
    for _ in range(reach):
        up = (up << 1) & ABOVE_ACE
        down = (down >> 1) & BELOW_KING
        out |= up | down
    ranks = (cards | (cards >> 13) | (cards >> 26) | (cards >> 39)) & SUIT_MASK
    out |= ranks | (ranks << 13) | (ranks << 26) | (ranks << 39)
    return out & ~cards

@jit_inline
def discard_context_nb(params, seat, hand, hs, tab):
    """The masks :func:`memory_discard_score_nb` reads for an 11-card ``hand``:
    ``(live, fits, near, shunned, sets, runs)``."""
    opp = 1 - seat
    known = hs[ST_TAKEN + opp]
    live = FULL_DECK & ~hand & ~hs[ST_PILE_MASK] & ~known
    fits = 0
    near = 0
    shunned = 0
    if params[seat, P_MEMORY] >= 2:
        fits = meld_completions_nb(known, tab)
        near = near_cards_nb(known, 2)
        shunned = near_cards_nb(hs[ST_DISCARDED + opp] | hs[ST_PASSED + opp], 1)
    sets = set_completions_nb(hand)
    runs = hand_run_completions_nb(hand, tab[T_WRAP] != 0)
    return live, fits, near, shunned, sets, runs

@jit_inline
def kept_outs_nb(hand, c, sets, runs, tab):
    """Cards not in ``hand`` that would make or extend a meld with two of the cards kept
    after discarding ``c`` (``sets``, ``runs``: the 11-card hand's completions)."""
    kept = hand & ~(1 << c)
    # Only the discarded card's suit changes its run completions.
    shift = 13 * (c // 13)
    suit_runs = run_completions_nb((kept >> shift) & SUIT_MASK, tab[T_WRAP] != 0) << shift
    column = RANK_COLUMN << (c % 13)  # and only its rank's set completions
    rank_sets = column & ~kept if popcount_nb(kept & column) >= 2 else 0
    return (runs & ~(SUIT_MASK << shift)) | suit_runs | (sets & ~column) | rank_sets

@jit_inline
def feeding_risk_nb(c, fits, near, shunned):
    """Memory 2's risk of discarding ``c``: 2 if it melds with two of the opponent's known
    cards, 1 if it is near one of them, minus 1 if it is near a card the opponent
    discarded or passed."""
    risk = 2 if (fits >> c) & 1 else ((near >> c) & 1)
    return risk - ((shunned >> c) & 1)


@jit_inline
def lowest_score_card_nb(cards, score_nb, context, tab):
    """The card of the mask ``cards`` with the lowest ``score_nb(context, card)``; ties go
    to the higher-value card, then the higher index. The one argmin of the scored
    discards (memory's and the expert's): each passes its own score kernel, so numba
    compiles (and inlines) a copy per kernel."""
    best = -1
    best_score = 1e18
    best_value = -1
    rest = cards
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        score = score_nb(context, c)
        value = tab[T_RANK_VALUE + c % 13]
        if score < best_score or (score == best_score and value >= best_value):
            best = c
            best_score = score
            best_value = value
    return best
