"""Meld kernels: candidate melds, exact minimum deadwood, the best discard (RULES §2).

Contract: numba-compiled pure functions over int64 scalars and numpy arrays; they
allocate nothing. A hand is an int64 bit mask of cards (``suit * 13 + rank``).
``tab`` is the int16 array of :mod:`ginsim.game.tables`. Scratch arrays are passed in
by the caller: ``melds``/``vals`` (int64, ``MAX_MELDS`` long) receive the candidate
melds of a hand, ``node_used``/``node_val``/``node_ids`` (int64, ``MAX_NODES`` long)
its packings; :func:`work_buffers_nb` cuts all five from one ``work`` array.

A packing is a collection of pairwise disjoint melds. Ten or eleven cards hold at
most three melds, so every packing is found by three nested loops; that is exact
(no greedy choice) and, with the few melds of a real hand, fast.
"""

from ._jit import jit
from .tables import SUIT_BITS, T_RANK_VALUE, T_SUM, T_TOP

MAX_MELDS = 336  # every meld of the deck (329) fits
MAX_NODES = 8192
WORK_SIZE = 2 * MAX_MELDS + 3 * MAX_NODES
ID_BITS = 10  # node_ids packs up to three meld indices + 1, ID_BITS bits each
SUIT_MASK = SUIT_BITS - 1
RANK_COLUMN = 1 | (1 << 13) | (1 << 26) | (1 << 39)  # the four cards of the ace


@jit
def popcount_nb(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@jit
def lowest_card_nb(x):
    """Index of the lowest set bit of a non-zero mask."""
    return popcount_nb((x & -x) - 1)


@jit
def mask_value_nb(mask, tab):
    """Deadwood value of all cards in ``mask``."""
    return (tab[T_SUM + (mask & SUIT_MASK)] + tab[T_SUM + ((mask >> 13) & SUIT_MASK)]
            + tab[T_SUM + ((mask >> 26) & SUIT_MASK)] + tab[T_SUM + ((mask >> 39) & SUIT_MASK)])


@jit
def card_value_nb(card, tab):
    return tab[T_RANK_VALUE + card % 13]


@jit
def top_card_nb(mask, tab):
    """The card a discard sheds first: highest value, then highest index; -1 if empty."""
    best = -1
    best_value = -1
    for suit in range(4):
        s = (mask >> (13 * suit)) & SUIT_MASK
        if s != 0:
            rank = tab[T_TOP + s]
            value = tab[T_RANK_VALUE + rank]
            if value >= best_value:  # later suits have higher indices
                best_value = value
                best = 13 * suit + rank
    return best


@jit
def candidate_melds_nb(hand, tab, melds, vals):
    """Write every meld contained in ``hand`` (sub-runs and 3-of-4 sets included).

    Returns the count. Runs come first, by suit and start rank, then sets by rank.
    """
    n = 0
    for suit in range(4):
        s = (hand >> (13 * suit)) & SUIT_MASK
        starts = s & (s >> 1) & (s >> 2)
        while starts != 0:
            p = lowest_card_nb(starts)
            starts &= starts - 1
            bits = 7 << p
            end = p + 3
            while True:
                if n < melds.shape[0]:
                    melds[n] = bits << (13 * suit)
                    vals[n] = tab[T_SUM + bits]
                n += 1
                if end > 12 or ((s >> end) & 1) == 0:
                    break
                bits |= 1 << end
                end += 1
    a = hand & SUIT_MASK
    b = (hand >> 13) & SUIT_MASK
    c = (hand >> 26) & SUIT_MASK
    d = (hand >> 39) & SUIT_MASK
    triples = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    while triples != 0:
        rank = lowest_card_nb(triples)
        triples &= triples - 1
        column = RANK_COLUMN << rank
        present = hand & column
        value = tab[T_RANK_VALUE + rank]
        if present == column:
            if n + 5 <= melds.shape[0]:
                melds[n] = column
                vals[n] = 4 * value
                for suit in range(4):
                    melds[n + 1 + suit] = column ^ (1 << (13 * suit + rank))
                    vals[n + 1 + suit] = 3 * value
            n += 5
        else:
            if n < melds.shape[0]:
                melds[n] = present
                vals[n] = 3 * value
            n += 1
    return n


@jit
def packings_nb(melds, vals, n, node_used, node_val, node_ids):
    """Every packing of up to three melds out of ``melds[:n]``, the empty one first.

    Writes the union mask, the melded value and the meld indices (each + 1, packed
    ``ID_BITS`` bits apart) of each; returns the count, or -1 if the buffers are too
    small (never for 10 or 11 cards with the sizes above).
    """
    if n > melds.shape[0]:
        return -1
    cap = node_used.shape[0]
    node_used[0] = 0
    node_val[0] = 0
    node_ids[0] = 0
    k = 1
    for i in range(n):
        mi = melds[i]
        if k >= cap:
            return -1
        node_used[k] = mi
        node_val[k] = vals[i]
        node_ids[k] = i + 1
        k += 1
        for j in range(i + 1, n):
            if melds[j] & mi:
                continue
            mij = mi | melds[j]
            vij = vals[i] + vals[j]
            if k >= cap:
                return -1
            node_used[k] = mij
            node_val[k] = vij
            node_ids[k] = (i + 1) | ((j + 1) << ID_BITS)
            k += 1
            for m in range(j + 1, n):
                if melds[m] & mij:
                    continue
                if k >= cap:
                    return -1
                node_used[k] = mij | melds[m]
                node_val[k] = vij + vals[m]
                node_ids[k] = (i + 1) | ((j + 1) << ID_BITS) | ((m + 1) << (2 * ID_BITS))
                k += 1
    return k


@jit
def max_meld_value_nb(hand, tab, melds, vals):
    """Largest total value of disjoint melds in a hand of at most 11 cards."""
    n = candidate_melds_nb(hand, tab, melds, vals)
    best = 0
    for i in range(n):
        mi = melds[i]
        vi = vals[i]
        if vi > best:
            best = vi
        for j in range(i + 1, n):
            if melds[j] & mi:
                continue
            mij = mi | melds[j]
            vij = vi + vals[j]
            if vij > best:
                best = vij
            for m in range(j + 1, n):
                if melds[m] & mij:
                    continue
                if vij + vals[m] > best:
                    best = vij + vals[m]
    return best


@jit
def min_deadwood_nb(hand, tab, melds, vals):
    """Exact minimum deadwood of a hand of at most 11 cards."""
    return mask_value_nb(hand, tab) - max_meld_value_nb(hand, tab, melds, vals)


@jit
def max_meld_value_any_nb(hand, tab, melds, vals, stack_i, stack_used, stack_val, best_ids):
    """Largest total value of disjoint melds for any number of cards (branch and bound).

    ``stack_*`` and ``best_ids`` are int64 scratch arrays of at least 18 entries (52
    cards hold at most 17 melds). Returns ``(value, count)``: the best packing is
    ``melds[best_ids[:count]]``; value -1 if the candidate buffer is too small.
    """
    n = candidate_melds_nb(hand, tab, melds, vals)
    if n > melds.shape[0]:
        return -1, 0
    meldable = 0
    for i in range(n):
        meldable |= melds[i]
    ceiling = mask_value_nb(meldable, tab)
    best = 0
    best_count = 0
    depth = 0
    stack_i[0] = 0
    stack_used[0] = 0
    stack_val[0] = 0
    while depth >= 0:
        i = stack_i[depth]
        used = stack_used[depth]
        value = stack_val[depth]
        if value > best:
            best = value
            best_count = depth
            for d in range(depth):
                best_ids[d] = stack_i[d] - 1
            if best == ceiling:
                break
        # Bound: even melding every remaining meldable card cannot beat best.
        if i >= n or value + mask_value_nb(meldable & ~used, tab) <= best:
            depth -= 1
            continue
        stack_i[depth] = i + 1
        if melds[i] & used == 0:
            depth += 1
            stack_i[depth] = i + 1
            stack_used[depth] = used | melds[i]
            stack_val[depth] = value + vals[i]
    return best, best_count


@jit
def work_buffers_nb(work):
    """Split one int64 scratch array into (melds, vals, node_used, node_val, node_ids)."""
    a = 2 * MAX_MELDS
    return (work[0:MAX_MELDS], work[MAX_MELDS:a], work[a:a + MAX_NODES],
            work[a + MAX_NODES:a + 2 * MAX_NODES], work[a + 2 * MAX_NODES:a + 3 * MAX_NODES])


@jit
def best_discard_nb(hand, forbidden, watch, tab, work):
    """Best discard from an 11-card hand (the move that decides draws and knocks).

    Returns ``(deadwood, discard, watch_melded, all_melded)``: the minimum deadwood of
    the 10 cards kept, the card to discard (ties: higher value, then higher index),
    whether the card ``watch`` is melded in some arrangement reaching that minimum,
    and whether all cards of ``hand`` can be melded at once (big gin). ``forbidden``
    is a mask of cards that may not be discarded (the card just taken from the pile).
    Discarding a melded card is covered by the packings that leave its meld out.
    """
    melds, vals, node_used, node_val, node_ids = work_buffers_nb(work)
    total = mask_value_nb(hand, tab)
    allowed = hand & ~forbidden
    n = candidate_melds_nb(hand, tab, melds, vals)
    count = packings_nb(melds, vals, n, node_used, node_val, node_ids)
    if count < 0:
        raise ValueError("meld scratch buffers too small")
    best_dw = 1 << 30
    best_card = -1
    best_value = -1
    watch_dw = 1 << 30
    all_melded = False
    for k in range(count):
        used = node_used[k]
        if used == hand:
            all_melded = True
        free = allowed & ~used
        if free == 0:
            continue
        card = top_card_nb(free, tab)
        value = tab[T_RANK_VALUE + card % 13]
        dw = total - node_val[k] - value
        if dw < best_dw or (dw == best_dw and (value > best_value or (
                value == best_value and card > best_card))):
            best_dw = dw
            best_card = card
            best_value = value
        if used & watch and dw < watch_dw:
            watch_dw = dw
    return best_dw, best_card, watch_dw == best_dw, all_melded
