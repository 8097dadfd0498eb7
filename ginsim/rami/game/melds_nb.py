"""The exact best lay-down of a hand over its candidate moves (:mod:`.moves_nb`).

:func:`best_lay_down_nb` visits every multiset of pairwise compatible moves (depth-first,
in candidate order, a move again only if the cards are there twice) and keeps the best
by (goes out, laid value, least value left in hand), under the turn's rules: the first
lay-down totals at least ``open_min`` at laid values in new melds (optionally holding a
pure run) unless it is a dry rami; lay-offs only by an opened or opening player;
exchanges only by a player opened before this turn, each freed joker placed in a new
meld this turn; going out keeps one card to discard (unless ruled otherwise); a card
taken from the discard pile must be used. It prunes only by bounds that cannot drop a
better plan: what the remaining moves could still lay, whether they could still go
out or open. Kernels allocate nothing: the caller hands every array.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import lowest_card_nb
from .moves_nb import (
    C_CARDS,
    C_FREED,
    C_HI,
    C_JOKERS,
    C_JPOS,
    C_JPOS2,
    C_LO,
    C_MASK,
    C_NC,
    C_NEWJ,
    C_PURE,
    C_RANK,
    C_RES1,
    C_RES2,
    C_SUIT,
    C_SUITS,
    C_TARGET,
    C_TYPE,
    C_VALUE,
    C_XSUIT,
    JOKER,
    KIND_RUN,
    KIND_SET,
    MAX_CANDIDATES,
    MAX_TABLE,
    MOVE_NEW_RUN,
    MOVE_NEW_SET,
    MOVE_RUN_BLOCK,
    MOVE_SET_ADD,
    RES_SLOTS,
    T_HI,
    T_JOKER,
    T_JOKER2,
    T_KIND,
    T_LO,
    T_OWNER,
    T_RANK,
    T_SIZE,
    T_SUIT,
    T_SUITS,
    T_WIDTH,
)
from .rules import R_DISCARD_OUT, R_OPEN_PURE_RUN
from .tables import TB_HAND, TB_JPM, TB_MAXLAID

MAX_DEPTH = 16
# Scratch layout (int64[SCRATCH_SIZE]).
S_CHOSEN = 0
S_START = S_CHOSEN + MAX_DEPTH
S_BEST = S_START + MAX_DEPTH + 1
S_RES = S_BEST + MAX_DEPTH
S_SUFFIX = S_RES + RES_SLOTS * MAX_TABLE  # kinds (bit 52: a joker) that moves c.. could still lay
SCRATCH_SIZE = S_SUFFIX + MAX_CANDIDATES + 1
JOKER_BIT = np.int64(1) << 52
OUT_BIT = 1 << 40
LAID_SHIFT = 16
LEFT_LIMIT = 65535


@jit_inline
def _fits_nb(counts, cand, c, scratch, held, cap):
    """Whether move ``c`` can be made: its cards are held (``held``: the bit mask of
    natural kinds with a card in hand), its jokers too, its table resources free (a
    run's joker slot counts jokers, up to ``cap`` per meld)."""
    row = cand[c]
    if row[C_MASK] & ~held != 0:
        return False
    if row[C_JOKERS] > 0 and counts[JOKER] < row[C_JOKERS]:
        return False
    if row[C_RES1] >= 0 and scratch[S_RES + row[C_RES1]] != 0:
        return False
    if row[C_RES2] >= 0 and scratch[S_RES + row[C_RES2]] + row[C_JOKERS] > cap:
        return False
    return True


@jit_inline
def _move_nb(counts, cand, c, scratch, tabs, sign):
    """Take move ``c`` out of the hand (sign 1) or put it back (-1); returns the change
    in (cards, hand value, bound) the hand loses."""
    row = cand[c]
    cards = row[C_NC] + row[C_JOKERS]
    value = row[C_JOKERS] * tabs[TB_HAND + JOKER]
    bound = row[C_JOKERS] * tabs[TB_MAXLAID + JOKER]
    counts[JOKER] -= sign * row[C_JOKERS]
    for i in range(row[C_NC]):
        kind = row[C_CARDS + i]
        counts[kind] -= sign
        value += tabs[TB_HAND + kind]
        bound += tabs[TB_MAXLAID + kind]
    if row[C_RES1] >= 0:
        scratch[S_RES + row[C_RES1]] += sign
    if row[C_RES2] >= 0:
        scratch[S_RES + row[C_RES2]] += sign * row[C_JOKERS]
    return cards, value, bound


@jit_inline
def _suffix_masks_nb(n, cand, scratch):
    """``scratch[S_SUFFIX + c]``: the kinds moves ``c..n-1`` use (bit 52 for jokers).
    Returns whether any move exchanges a joker (then the bound stays the plain one)."""
    mask = np.int64(0)
    exchanges = False
    scratch[S_SUFFIX + n] = 0
    for c in range(n - 1, -1, -1):
        mask |= cand[c, C_MASK]
        if cand[c, C_JOKERS] > 0:
            mask |= JOKER_BIT
        if cand[c, C_FREED] > 0:
            exchanges = True
        scratch[S_SUFFIX + c] = mask
    return exchanges


@jit_inline
def _sum_in_nb(counts, mask, tabs, laid):
    """Over the natural kinds of ``mask``: the cards held, or (``laid``) the most they
    could count laid."""
    total = 0
    while mask != 0:
        k = lowest_card_nb(mask)
        mask &= mask - 1
        total += counts[k] * (tabs[TB_MAXLAID + k] if laid else 1)
    return total


@jit_inline
def _reach_nb(counts, suffix, held, tabs):
    """(most value the moves of ``suffix`` could still lay, cards they cannot lay)."""
    reach = _sum_in_nb(counts, suffix & held, tabs, True)
    loose = _sum_in_nb(counts, held & ~suffix, tabs, False)
    if suffix & JOKER_BIT:
        reach += counts[JOKER] * tabs[TB_MAXLAID + JOKER]
    else:
        loose += counts[JOKER]
    return reach, loose


@jit_inline
def _held_nb(counts):
    held = np.int64(0)
    for k in range(JOKER):
        if counts[k] > 0:
            held |= np.int64(1) << k
    return held


@jit_inline
def _held_after_nb(counts, cand, c, held):
    """``held`` after move ``c`` took its cards: a kind whose last card went is cleared."""
    for i in range(cand[c, C_NC]):
        kind = cand[c, C_CARDS + i]
        if counts[kind] == 0:
            held &= ~(np.int64(1) << kind)
    return held


@jit_inline
def _hand_totals_nb(counts, tabs):
    cards = 0
    value = 0
    bound = 0
    for k in range(53):
        cards += counts[k]
        value += counts[k] * tabs[TB_HAND + k]
        bound += counts[k] * tabs[TB_MAXLAID + k]
    return cards, value, bound


@jit
def _cannot_open_nb(counts, n, cand, dry_ok, open_min, tabs, held):
    """Whether no lay-down of an unopened hand can be valid: its new melds could total
    less than the opening minimum even with every card any of them uses, and (if a dry
    rami is possible) more than one card is in no new meld at all."""
    used = np.int64(0)
    for c in range(n):
        if cand[c, C_TYPE] <= MOVE_NEW_RUN:
            used |= cand[c, C_MASK]
    bound = counts[JOKER] * tabs[TB_MAXLAID + JOKER] + _sum_in_nb(counts, used, tabs, True)
    if bound >= open_min:
        return False
    if not dry_ok:
        return True
    loose = _sum_in_nb(counts, held & ~used, tabs, False)
    return loose > 1


#: What the search knows of the turn: whether the player opened before it, whether a
#: dry rami is still possible (no opponent opened), the opening minimum, and a card taken
#: from the discard pile (``must_kind``, -1 none) of which at most ``must_max`` may stay.
PlanTurn = namedtuple("PlanTurn", ["opened", "dry_ok", "open_min", "must_kind", "must_max"])
#: The best lay-down found: its score (see :func:`best_lay_down_nb`) and how many moves
#: (``scratch[S_BEST:][:moves]``).
Plan = namedtuple("Plan", ["score", "moves"])
#: The search's current path: its depth and what the hand holds after its moves.
_Path = namedtuple("_Path", ["depth", "cards", "left_value", "left_bound", "laid",
                             "new_value", "pure", "new_jokers", "freed", "held"])
NOT_OK = -(1 << 62)  # the score of a path that is no valid lay-down


@jit_inline
def _must_keep_nb(counts, turn):
    """Whether more cards of the taken discard stay in hand than may (it must be used)."""
    return turn.must_kind >= 0 and counts[turn.must_kind] > turn.must_max


@jit_inline
def _moved_nb(path, cand, c, sign, depth, held, change):
    """The path after move ``c`` was made (``sign`` 1) or taken back (-1); ``change``:
    what the move takes from the hand (cards, hand value, bound) of :func:`_move_nb`."""
    d_cards, d_value, d_bound = change
    new = sign if cand[c, C_TYPE] <= MOVE_NEW_RUN else 0
    return _Path(depth, path.cards - sign * d_cards, path.left_value - sign * d_value,
                 path.left_bound - sign * d_bound, path.laid + sign * cand[c, C_VALUE],
                 path.new_value + new * cand[c, C_VALUE], path.pure + new * cand[c, C_PURE],
                 path.new_jokers + new * cand[c, C_NEWJ], path.freed + sign * cand[c, C_FREED],
                 held)


@jit_inline
def _push_nb(counts, cand, c, scratch, tabs, path):
    """Make move ``c`` at the end of the path; the next move is looked for from ``c``
    (the same move again if its cards are there twice)."""
    change = _move_nb(counts, cand, c, scratch, tabs, 1)
    held = _held_after_nb(counts, cand, c, path.held)
    depth = path.depth
    scratch[S_CHOSEN + depth] = c
    scratch[S_START + depth] = c + 1
    scratch[S_START + depth + 1] = c
    return _moved_nb(path, cand, c, 1, depth + 1, held, change)


@jit_inline
def _pop_nb(counts, cand, scratch, tabs, path):
    """Take back the path's last move."""
    depth = path.depth - 1
    c = scratch[S_CHOSEN + depth]
    change = _move_nb(counts, cand, c, scratch, tabs, -1)
    return _moved_nb(path, cand, c, -1, depth, path.held | cand[c, C_MASK], change)


@jit_inline
def _pruned_nb(counts, path, c, best, exchanges, turn, scratch, tabs):
    """Whether no move from ``c`` on can extend the path to a plan better than ``best``
    (or to a valid opening), or the path is as deep as the search goes."""
    if exchanges:
        limit = OUT_BIT + ((path.laid + path.left_bound) << LAID_SHIFT) + LEFT_LIMIT
        reach = path.left_bound
    else:
        reach, loose = _reach_nb(counts, scratch[S_SUFFIX + c], path.held, tabs)
        out_bit = OUT_BIT if loose <= 1 else 0
        limit = out_bit + ((path.laid + reach) << LAID_SHIFT) + LEFT_LIMIT
    return best >= limit or path.depth >= MAX_DEPTH or (
        not turn.opened and not turn.dry_ok and path.new_value < turn.open_min
        and path.new_value + reach < turn.open_min)


@jit_inline
def _path_score_nb(counts, path, turn, discard_out, pure_needed):
    """The path's score as a lay-down, or :data:`NOT_OK` if it is none: a card kept to
    discard (if ruled), every freed joker in a new meld, the taken discard used, and an
    unopened player's opening valid (or a dry rami)."""
    out = path.cards == 1 or (path.cards == 0 and not discard_out)
    if path.cards < (1 if discard_out else 0) or path.new_jokers < path.freed:
        return NOT_OK
    if _must_keep_nb(counts, turn):
        return NOT_OK
    if not turn.opened and not (
            (path.new_value >= turn.open_min and (path.pure > 0 or not pure_needed))
            or (out and turn.dry_ok)):
        return NOT_OK
    return (OUT_BIT if out else 0) + (path.laid << LAID_SHIFT) + LEFT_LIMIT - path.left_value


@jit
def best_lay_down_nb(counts, n_cand, cand, turn, rules, tabs, scratch):
    """The best lay-down of ``counts`` over moves ``cand[:n_cand]`` on ``turn`` (a
    :data:`PlanTurn`; see the module docstring). Returns a :data:`Plan`; its moves are
    ``scratch[S_BEST:][:moves]`` and its score packs ``OUT_BIT`` (goes out), the laid
    value (``>> LAID_SHIFT``) and ``LEFT_LIMIT`` minus the value left in hand (-1: no
    valid plan, the taken discard unused). ``counts`` comes back unchanged."""
    n = min(n_cand, MAX_CANDIDATES)
    for c in range(n):  # free every table resource a move could use
        if cand[c, C_RES1] >= 0:
            scratch[S_RES + cand[c, C_RES1]] = 0
        if cand[c, C_RES2] >= 0:
            scratch[S_RES + cand[c, C_RES2]] = 0
    exchanges = _suffix_masks_nb(n, cand, scratch)
    held = _held_nb(counts)
    cards, left_value, left_bound = _hand_totals_nb(counts, tabs)
    best = -1 if _must_keep_nb(counts, turn) else LEFT_LIMIT - left_value  # laying nothing
    if not turn.opened and _cannot_open_nb(counts, n, cand, turn.dry_ok, turn.open_min, tabs,
                                           held):
        return Plan(best, np.int64(0))
    discard_out = rules[R_DISCARD_OUT] != 0
    pure_needed = rules[R_OPEN_PURE_RUN] != 0
    cap = tabs[TB_JPM]
    best_depth = np.int64(0)
    zero = np.int64(0)
    path = _Path(zero, cards, left_value, left_bound, zero, zero, zero, zero, zero, held)
    scratch[S_START] = 0
    while True:
        c = scratch[S_START + path.depth]
        if _pruned_nb(counts, path, c, best, exchanges, turn, scratch, tabs):
            c = n
        while c < n and not _fits_nb(counts, cand, c, scratch, path.held, cap):
            c += 1
        if c < n:
            path = _push_nb(counts, cand, c, scratch, tabs, path)
            score = _path_score_nb(counts, path, turn, discard_out, pure_needed)
            if score > best:
                best = score
                best_depth = path.depth
                for i in range(path.depth):
                    scratch[S_BEST + i] = scratch[S_CHOSEN + i]
        elif path.depth == 0:
            break
        else:
            path = _pop_nb(counts, cand, scratch, tabs, path)
    return Plan(best, best_depth)


@jit
def apply_move_nb(counts, table, n_table, cand, c, owner):
    """Play move ``c``: take its cards from ``counts`` and put them on the table (a new
    row for a new meld). Returns the new table length."""
    row = cand[c]
    for i in range(row[C_NC]):
        counts[row[C_CARDS + i]] -= 1
    counts[JOKER] -= row[C_JOKERS]
    move = row[C_TYPE]
    added = row[C_NC] + (row[C_JOKERS] if row[C_JOKERS] > 0 else 0)
    if move == MOVE_NEW_SET or move == MOVE_NEW_RUN:
        m = n_table
        for f in range(T_WIDTH):
            table[m, f] = 0
        table[m, T_KIND] = KIND_SET if move == MOVE_NEW_SET else KIND_RUN
        table[m, T_SUIT] = row[C_SUIT]
        table[m, T_RANK] = row[C_RANK]
        table[m, T_LO] = row[C_LO]
        table[m, T_HI] = row[C_HI]
        table[m, T_SUITS] = row[C_SUITS]
        table[m, T_JOKER] = row[C_JPOS]
        table[m, T_JOKER2] = row[C_JPOS2]
        table[m, T_OWNER] = owner
        table[m, T_SIZE] = added
        return n_table + 1
    m = row[C_TARGET]
    if move == MOVE_RUN_BLOCK:
        table[m, T_LO] = min(table[m, T_LO], row[C_LO])
        table[m, T_HI] = max(table[m, T_HI], row[C_HI])
        if row[C_JPOS] > 0:  # a joker-free run takes its jokers
            table[m, T_JOKER] = row[C_JPOS]
            table[m, T_JOKER2] = row[C_JPOS2]
        table[m, T_SIZE] += added
    elif move == MOVE_SET_ADD:
        table[m, T_SUITS] |= row[C_SUITS]
        if row[C_XSUIT] >= 0:
            table[m, T_SUITS] |= 1 << row[C_XSUIT]
            table[m, T_JOKER] = 0
        if row[C_JPOS] > 0:
            table[m, T_JOKER] = 1
        table[m, T_SIZE] += row[C_NC] - (1 if row[C_XSUIT] >= 0 else 0) + row[C_JPOS]
    else:  # MOVE_RUN_EXCHANGE: the natural takes the joker's place
        if table[m, T_JOKER] == row[C_JPOS]:
            table[m, T_JOKER] = table[m, T_JOKER2]
        table[m, T_JOKER2] = 0
    return n_table
