"""Meld kernels: candidate melds, exact minimum deadwood, the best discard (docs/rules.md §2).

Contract: numba-compiled pure functions over int64 scalars and numpy arrays; they
allocate nothing. A hand is an int64 bit mask of cards (``suit * 13 + rank``).
``tab`` is the int16 array of :mod:`ginsim.game.card_tables`. ``work`` is one int64 scratch
array of ``WORK_SIZE`` made by the caller (a hand's is ``Board.work``, game/state.py):
candidate melds and values to ``work[W_MELDS:]``, ``work[W_VALS:]`` (``MAX_MELDS``
each), packings (union mask, melded value, meld indices) to ``work[W_USED:]``,
``work[W_VAL:]``, ``work[W_IDS:]`` (``MAX_NODES`` each), and the deadwood kept after
each possible discard to ``work[W_DISCARD + card]``.

A packing is a collection of pairwise disjoint melds. Ten or eleven cards hold at
most three melds, so every packing is found by three nested loops, written once in
:func:`packing_fold`; that is exact (no greedy choice) and, with the few melds of a real
hand, fast.
"""

from ._jit import jit, jit_inline
from .bits_nb import lowest_card_nb, popcount_nb  # noqa: F401 (part of this module's API)
from .card_tables import KEY_VALUE, SUIT_BITS, T_RANK_VALUE, T_SUM, T_TOP_KEY, T_WRAP

MAX_MELDS = 600  # every meld of the deck fits: 329, or 589 when runs wrap
MAX_NODES = 8192
W_MELDS = 0
W_VALS = MAX_MELDS
W_USED = 2 * MAX_MELDS
W_VAL = W_USED + MAX_NODES
W_IDS = W_VAL + MAX_NODES
W_DISCARD = W_IDS + MAX_NODES  # W_DISCARD + card: deadwood kept after discarding card
WORK_SIZE = W_DISCARD + 52
NO_DISCARD = 1 << 30
KEY_SCALE = 1 << 16  # a packing's score: kept deadwood * KEY_SCALE - shedding key
NO_SCORE = 1 << 60
ID_BITS = 10  # node_ids packs up to three meld indices + 1, ID_BITS bits each
SUIT_MASK = SUIT_BITS - 1
RANK_COLUMN = 1 | (1 << 13) | (1 << 26) | (1 << 39)  # the four cards of the ace
BELOW_KING = ((1 << 52) - 1) & ~(RANK_COLUMN << 12)  # every card but the kings


@jit
def mask_value_nb(mask, tab):
    """Deadwood value of all cards in ``mask``."""
    return (tab[T_SUM + (mask & SUIT_MASK)] + tab[T_SUM + ((mask >> 13) & SUIT_MASK)]
            + tab[T_SUM + ((mask >> 26) & SUIT_MASK)] + tab[T_SUM + ((mask >> 39) & SUIT_MASK)])


@jit_inline
def run_melds_nb(hand, tab, work, n):
    """Write the runs of ``hand`` (no wrap-around) by suit and start rank after the ``n``
    melds written so far; returns the new count."""
    # Run starts of every suit at once: card k with k+1 and k+2 of its suit.
    nxt = (hand >> 1) & BELOW_KING
    starts = hand & nxt & ((nxt >> 1) & BELOW_KING)
    while starts != 0:
        p = lowest_card_nb(starts)
        starts &= starts - 1
        shift = 13 * (p // 13)
        bits = 7 << p
        end = p + 3
        while True:
            if n < MAX_MELDS:
                work[W_MELDS + n] = bits
                work[W_VALS + n] = tab[T_SUM + (bits >> shift)]
            n += 1
            if end % 13 == 0 or ((hand >> end) & 1) == 0:
                break
            bits |= 1 << end
            end += 1
    return n


@jit_inline
def wrap_run_melds_nb(hand, tab, work, n):
    """:func:`run_melds_nb` when runs wrap around (K-A-2), the whole suit once."""
    for suit in range(4):
        s = (hand >> (13 * suit)) & SUIT_MASK
        # Wrap-around runs are read on the suit repeated twice, starting in the first copy.
        ss = s | (s << 13)
        starts = ss & (ss >> 1) & (ss >> 2) & SUIT_MASK
        longest = 12  # the whole suit is added once below
        while starts != 0:
            p = lowest_card_nb(starts)
            starts &= starts - 1
            bits = 7 << p
            end = p + 3
            while True:
                run = (bits | (bits >> 13)) & SUIT_MASK
                if n < MAX_MELDS:
                    work[W_MELDS + n] = run << (13 * suit)
                    work[W_VALS + n] = tab[T_SUM + run]
                n += 1
                if end - p >= longest or end > 25 or ((ss >> end) & 1) == 0:
                    break
                bits |= 1 << end
                end += 1
        if s == SUIT_MASK:
            if n < MAX_MELDS:
                work[W_MELDS + n] = s << (13 * suit)
                work[W_VALS + n] = tab[T_SUM + s]
            n += 1
    return n


@jit_inline
def set_melds_nb(hand, tab, work, n):
    """:func:`run_melds_nb` for the sets, by rank (four cards: the set and its 3-sets)."""
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
            if n + 5 <= MAX_MELDS:
                work[W_MELDS + n] = column
                work[W_VALS + n] = 4 * value
                for suit in range(4):
                    work[W_MELDS + n + 1 + suit] = column ^ (1 << (13 * suit + rank))
                    work[W_VALS + n + 1 + suit] = 3 * value
            n += 5
        else:
            if n < MAX_MELDS:
                work[W_MELDS + n] = present
                work[W_VALS + n] = 3 * value
            n += 1
    return n


@jit
def candidate_melds_nb(hand, tab, work):
    """Write every meld contained in ``hand`` (sub-runs and 3-of-4 sets included).

    Returns the count (melds beyond ``MAX_MELDS`` are counted, not written). Runs
    come first, by suit and start rank, then sets by rank.
    """
    if tab[T_WRAP] != 0:
        n = wrap_run_melds_nb(hand, tab, work, 0)
    else:
        n = run_melds_nb(hand, tab, work, 0)
    return set_melds_nb(hand, tab, work, n)


def packing_fold(visit):
    """A kernel ``fold(tab, work, n, ctx, acc)`` that runs ``acc = visit(tab, work, ctx,
    acc, used, melded_value, i, j, m)`` over every nonempty packing of up to three of
    the ``n`` candidate melds (``j``, ``m`` = -1 when absent; ``ctx`` holds scalars).

    The one enumeration of packings: the minimum deadwood, the best discard and the
    stored packings of the showdown each fold their own ``visit`` over it. ``visit`` is
    bound here rather than passed at run time so numba inlines it into the loops.
    """

    @jit_inline
    def fold(tab, work, n, ctx, acc):
        for i in range(n):
            mi = work[W_MELDS + i]
            vi = work[W_VALS + i]
            acc = visit(tab, work, ctx, acc, mi, vi, i, -1, -1)
            for j in range(i + 1, n):
                mj = work[W_MELDS + j]
                if mj & mi:
                    continue
                mij = mi | mj
                vij = vi + work[W_VALS + j]
                acc = visit(tab, work, ctx, acc, mij, vij, i, j, -1)
                for m in range(j + 1, n):
                    mm = work[W_MELDS + m]
                    if mm & mij == 0:
                        acc = visit(tab, work, ctx, acc, mij | mm, vij + work[W_VALS + m],
                                    i, j, m)
        return acc

    return fold


@jit_inline
def _store_ids_nb(tab, work, ctx, k, used, melded_value, i, j, m):
    """Keep packing ``k`` with its meld indices (each + 1, ``ID_BITS`` apart); the
    visitor of :func:`packings_nb`."""
    if k < MAX_NODES:
        work[W_USED + k] = used
        work[W_VAL + k] = melded_value
        work[W_IDS + k] = (i + 1) | ((j + 1) << ID_BITS) | ((m + 1) << (2 * ID_BITS))
    return k + 1


_fold_store_nb = packing_fold(_store_ids_nb)


@jit
def packings_nb(work, n):
    """Every packing of up to three of the ``n`` candidate melds, the empty one first.

    Writes the union mask, the melded value and the meld indices (each + 1, packed
    ``ID_BITS`` bits apart) of each; returns the count, or -1 if the buffers are too
    small (never for 10 or 11 cards with the sizes above).
    """
    if n > MAX_MELDS:
        return -1
    work[W_USED] = 0  # the empty packing
    work[W_VAL] = 0
    work[W_IDS] = 0
    k = _fold_store_nb(work, work, n, 0, 1)  # storing reads no card table: work fills in
    return k if k <= MAX_NODES else -1


@jit_inline
def _visit_max_nb(tab, work, ctx, best, used, melded_value, i, j, m):
    return max(best, melded_value)


_fold_max_nb = packing_fold(_visit_max_nb)


@jit
def max_meld_value_nb(hand, tab, work):
    """Largest total value of disjoint melds in a hand of at most 11 cards."""
    return _fold_max_nb(tab, work, candidate_melds_nb(hand, tab, work), 0, 0)


@jit
def min_deadwood_nb(hand, tab, work):
    """Exact minimum deadwood of a hand of at most 11 cards."""
    return mask_value_nb(hand, tab) - max_meld_value_nb(hand, tab, work)


@jit
def max_meld_value_any_nb(hand, tab, work, stack_i, stack_used, stack_val, best_ids):
    """Largest total value of disjoint melds for any number of cards (branch and bound).

    ``stack_*`` and ``best_ids`` are int64 scratch arrays of at least 18 entries (52
    cards hold at most 17 melds). Returns ``(value, count)``: the best packing is the
    candidate melds ``work[W_MELDS + best_ids[:count]]``.
    """
    n = candidate_melds_nb(hand, tab, work)
    meldable = 0
    for i in range(n):
        meldable |= work[W_MELDS + i]
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
        if work[W_MELDS + i] & used == 0:
            depth += 1
            stack_i[depth] = i + 1
            stack_used[depth] = used | work[W_MELDS + i]
            stack_val[depth] = value + work[W_VALS + i]
    return best, best_count


@jit
def top_key_nb(mask, tab):
    """Shedding key of the card a discard sheds first from ``mask``: value * KEY_VALUE +
    card, so the highest key is the highest value, then the highest index; -1 if empty."""
    k0 = tab[T_TOP_KEY + (mask & SUIT_MASK)]
    k1 = tab[T_TOP_KEY + ((mask >> 13) & SUIT_MASK)]
    k2 = tab[T_TOP_KEY + ((mask >> 26) & SUIT_MASK)]
    k3 = tab[T_TOP_KEY + ((mask >> 39) & SUIT_MASK)]
    k1 = k1 + 13 if k1 >= 0 else -1
    k2 = k2 + 26 if k2 >= 0 else -1
    k3 = k3 + 39 if k3 >= 0 else -1
    return max(max(k0, k1), max(k2, k3))


@jit
def _shed_score_nb(used, melded_value, allowed, total, tab):
    """Score of a packing for the best discard: kept deadwood * KEY_SCALE minus the
    shedding key of its top free card (lower is better); NO_SCORE when nothing is free."""
    free = allowed & ~used
    if free == 0:
        return NO_SCORE
    key = top_key_nb(free, tab)
    return (total - melded_value - key // KEY_VALUE) * KEY_SCALE - key


@jit
def _per_card_nb(hand_total, allowed, count, tab, work):
    """Fill ``work[W_DISCARD + c]``, the deadwood kept after discarding each allowed c,
    from the ``count`` packings stored at ``W_USED``/``W_VAL`` (the empty one included).

    A card outside some best packing keeps ``total - value - best``; only the cards of
    that packing need the best packing without them.
    """
    best = 0
    best_used = 0
    for k in range(count):
        if work[W_VAL + k] > best:
            best = work[W_VAL + k]
            best_used = work[W_USED + k]
    rest = allowed
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        work[W_DISCARD + c] = hand_total - tab[T_RANK_VALUE + c % 13] - (
            0 if (best_used >> c) & 1 else best)
    inner = allowed & best_used
    for k in range(count):
        rest = inner & ~work[W_USED + k]
        kept = hand_total - work[W_VAL + k]
        while rest != 0:
            c = lowest_card_nb(rest)
            rest &= rest - 1
            dw_c = kept - tab[T_RANK_VALUE + c % 13]
            if dw_c < work[W_DISCARD + c]:
                work[W_DISCARD + c] = dw_c


@jit
def _store_packing_nb(used, melded_value, k, work):
    """Keep packing ``k`` (for the per-card pass); returns ``k + 1``."""
    if k < MAX_NODES:
        work[W_USED + k] = used
        work[W_VAL + k] = melded_value
    return k + 1


@jit_inline
def _visit_discard_nb(tab, work, ctx, acc, used, melded_value, i, j, m):
    """Fold one packing into the best discard's running state (see best_discard_nb)."""
    hand, allowed, total, watch = ctx
    best, watched, all_melded = acc
    score = _shed_score_nb(used, melded_value, allowed, total, tab)
    if used & watch:
        watched = min(watched, score)
    return min(best, score), watched, all_melded | (used == hand)


@jit_inline
def _visit_discard_store_nb(tab, work, ctx, acc, used, melded_value, i, j, m):
    """:func:`_visit_discard_nb`, keeping each packing for the per-card pass."""
    best, watched, all_melded, stored = acc
    best, watched, all_melded = _visit_discard_nb(
        tab, work, ctx, (best, watched, all_melded), used, melded_value, i, j, m)
    return best, watched, all_melded, _store_packing_nb(used, melded_value, stored, work)


_fold_discard_nb = packing_fold(_visit_discard_nb)
_fold_discard_store_nb = packing_fold(_visit_discard_store_nb)


@jit
def best_discard_nb(hand, forbidden, watch, tab, work, per_card):
    """Best discard from an 11-card hand (the move that decides draws and knocks).

    Returns ``(deadwood, discard, watch_melded, all_melded)``: the minimum deadwood of
    the 10 cards kept, the card to discard (ties: higher value, then higher index),
    whether the card ``watch`` is melded in some arrangement reaching that minimum,
    and whether all cards of ``hand`` can be melded at once (big gin). ``forbidden``
    is a mask of cards that may not be discarded (the card just taken from the pile).
    Each packing of the candidate melds sheds its top free card; discarding a melded
    card is covered by the packings that leave its meld out. With ``per_card`` the
    deadwood kept after each allowed discard goes to ``work[W_DISCARD + card]``
    (other cards' slots are left as they were). Packings are scored branch-free (one
    integer per packing), which is what makes this the cheap step of a turn.
    """
    total = mask_value_nb(hand, tab)
    allowed = hand & ~forbidden
    n = candidate_melds_nb(hand, tab, work)
    if n > MAX_MELDS:
        raise ValueError("meld scratch buffers too small")
    ctx = (hand, allowed, total, watch)
    empty = _shed_score_nb(0, 0, allowed, total, tab)
    if per_card:
        best, watched, all_melded, stored = _fold_discard_store_nb(
            tab, work, n, ctx, (empty, NO_SCORE, False, _store_packing_nb(0, 0, 0, work)))
        if stored > MAX_NODES:
            raise ValueError("meld scratch buffers too small")
        _per_card_nb(total, allowed, stored, tab, work)
    else:
        best, watched, all_melded = _fold_discard_nb(tab, work, n, ctx, (empty, NO_SCORE, False))
    if best == NO_SCORE:
        return NO_DISCARD, -1, False, all_melded
    key = (-best) % KEY_SCALE
    dw = (best + key) // KEY_SCALE
    watch_dw = (watched + (-watched) % KEY_SCALE) // KEY_SCALE
    return dw, key % KEY_VALUE, watch_dw == dw, all_melded
