"""Showdown kernels: the knocker's arrangement and the defender's layoffs (docs/rules.md §5.2).

Contract as in :mod:`ginsim.game.melds_nb`: numba functions over int64 masks and
arrays, no allocation. The knocker's melds travel as a small int64 array of masks
plus a count.
"""

from ._jit import jit
from .bits_nb import lowest_card_nb, popcount_nb
from .card_tables import T_WRAP
from .melds_nb import (
    ID_BITS,
    RANK_COLUMN,
    SUIT_MASK,
    W_IDS,
    W_MELDS,
    W_USED,
    W_VAL,
    candidate_melds_nb,
    mask_value_nb,
    max_meld_value_nb,
    packings_nb,
)
from .rules import LAYOFF_LAYOFFS_FIRST, LAYOFF_OPTIMAL, LAYOFF_TWO_ORDERS


@jit
def suit_neighbours_nb(m, wrap):
    """Ranks next to the ranks of the 13-bit mask ``m`` (around the corner if ``wrap``)."""
    out = (m << 1) | (m >> 1)
    if wrap:
        out |= (m >> 12) | ((m & 1) << 12)
    return out & SUIT_MASK


@jit
def layoff_reach_nb(kmelds, nk, cards, tab):
    """The cards of ``cards`` that can be laid off onto the melds ``kmelds[:nk]``.

    A 3-card set takes its 4th card; a run grows one card at a time at either end
    (around the corner when the rules' runs wrap) while the next card is in ``cards``
    (layoff chains). Every card reached can be laid off in the same play, each onto
    one meld, so the result is exact.
    """
    wrap = tab[T_WRAP] != 0
    reach = 0
    for k in range(nk):
        meld = kmelds[k]
        low = lowest_card_nb(meld)
        column = RANK_COLUMN << (low % 13)
        if meld & ~column == 0:
            if popcount_nb(meld) == 3:
                reach |= column & ~meld & cards
        else:
            shift = 13 * (low // 13)
            run = (meld >> shift) & SUIT_MASK
            avail = (cards >> shift) & SUIT_MASK
            grown = run
            while True:
                step = suit_neighbours_nb(grown, wrap) & avail & ~grown
                if step == 0:
                    break
                grown |= step
            reach |= (grown & ~run) << shift
    return reach


@jit
def node_melds_nb(ids, work, out):
    """Unpack a packing's meld indices (see ``packings_nb``) into masks; returns count."""
    count = 0
    for level in range(3):
        idx = (ids >> (ID_BITS * level)) & ((1 << ID_BITS) - 1)
        if idx != 0:
            out[count] = work[W_MELDS + idx - 1]
            count += 1
    return count


@jit
def own_packings_nb(hand, tab, work):
    """Write every packing of ``hand``'s melds to ``work``; returns (count, best value)."""
    count = packings_nb(work, candidate_melds_nb(hand, tab, work))
    if count < 0:
        raise ValueError("meld scratch buffers too small")
    best = 0
    for k in range(count):
        if work[W_VAL + k] > best:
            best = work[W_VAL + k]
    return count, best


@jit
def knocker_arrangement_nb(hand, unseen, tab, work, out_melds):
    """The knocker's melds: minimum deadwood, then fewest unseen cards exposed to layoffs.

    Writes the chosen melds to ``out_melds`` and returns ``(deadwood, meld count)``.
    Ties on exposure keep the first arrangement in packing order.
    """
    count, best_value = own_packings_nb(hand, tab, work)
    best_exposed = 1 << 30
    best_node = 0
    for k in range(count):
        if work[W_VAL + k] != best_value:
            continue
        nk = node_melds_nb(work[W_IDS + k], work, out_melds)
        exposed = popcount_nb(layoff_reach_nb(out_melds, nk, unseen, tab))
        if exposed < best_exposed:
            best_exposed = exposed
            best_node = k
    nk = node_melds_nb(work[W_IDS + best_node], work, out_melds)
    return mask_value_nb(hand, tab) - best_value, nk


@jit
def defender_deadwood_nb(hand, kmelds, nk, mode, tab, work):
    """Defender's deadwood ``(before layoffs, after layoffs)`` against ``kmelds[:nk]``.

    ``mode`` is a ``LAYOFF_*`` code. ``LAYOFF_OPTIMAL`` is the exact minimum over
    every split of the hand into own melds, layoffs and deadwood: each packing of own
    melds (not only the largest) is tried with every card it leaves free laid off.
    Pass ``nk = 0`` for gin (no layoffs).
    """
    total = mask_value_nb(hand, tab)
    if nk == 0 or layoff_reach_nb(kmelds, nk, hand, tab) == 0:
        # Nothing can be laid off (a layoff needs its cards in the hand, so no subset of
        # the hand reaches more than the whole): D is the own best deadwood.
        before = total - max_meld_value_nb(hand, tab, work)
        return before, before
    count, best_own = own_packings_nb(hand, tab, work)
    before = total - best_own
    after = before
    if mode != LAYOFF_LAYOFFS_FIRST:
        for k in range(count):
            if mode != LAYOFF_OPTIMAL and work[W_VAL + k] != best_own:
                continue
            rest = hand & ~work[W_USED + k]
            dw = mask_value_nb(rest & ~layoff_reach_nb(kmelds, nk, rest, tab), tab)
            if dw < after:
                after = dw
    if mode == LAYOFF_LAYOFFS_FIRST or mode == LAYOFF_TWO_ORDERS:
        rest = hand & ~layoff_reach_nb(kmelds, nk, hand, tab)
        dw = mask_value_nb(rest, tab) - max_meld_value_nb(rest, tab, work)
        if dw < after or mode == LAYOFF_LAYOFFS_FIRST:
            after = dw
    return before, after
