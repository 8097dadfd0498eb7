"""Meld kernels: candidate moves of a hand against the table, and the exact best lay-down.

A hand is int64[53] kind counts (:mod:`ginsim.rami.cards`). The table is an int64
array ``table[m, T_*]``: a set (rank, natural suits bit mask, joker flag) or a run
(suit, lowest and highest position, the joker's position; positions 1 = ace low ..
14 = ace high). ``tabs`` is :func:`ginsim.rami.tables.rami_tables`.

A *candidate* is one move of a turn, a row ``cand[i, C_*]``: a new set or run from the
hand (a joker in at most one slot), a block of cards laid off at one end of a table
run, cards (a joker too) added to a table set, or a tabled joker exchanged for the
natural card it stands for. Each consumes hand cards (each kind at most once) and uses
table *resources* (one end of a run, a set's free slots, a meld's joker slot), so two
moves that would touch the same end of a meld never combine.

:func:`best_plan_nb` is exact: it visits every multiset of pairwise compatible moves
(depth-first, in candidate order, a move again only if the cards are there twice) and
keeps the best by (goes out, laid value, least value left in hand), under the turn's
rules: the first lay-down totals at least ``open_min`` at laid values in new melds
(optionally holding a pure run) unless it is a dry rami; lay-offs only by an opened or
opening player; exchanges only by a player opened before this turn, each freed joker
placed in a new meld this turn; going out keeps one card to discard (unless ruled
otherwise); a card taken from the discard pile must be used. The only pruning is a
bound (the value of the cards still in hand) that cannot drop a better plan.
Kernels allocate nothing: the caller hands every array.
"""

import numpy as np

from ..game._jit import jit, jit_inline
from ..game.bits_nb import lowest_card_nb
from .rules import R_DISCARD_OUT, R_OPEN_PURE_RUN
from .tables import TB_HAND, TB_MAXLAID, TB_POS, TB_SET

JOKER = 52
# Table meld fields.
T_KIND = 0  # 0 empty, 1 set, 2 run
T_SUIT = 1
T_RANK = 2
T_LO = 3
T_HI = 4
T_SUITS = 5
T_JOKER = 6  # run: the joker's position (0 none); set: 1 with a joker
T_OWNER = 7
T_SIZE = 8
T_WIDTH = 9
KIND_SET = 1
KIND_RUN = 2
MAX_TABLE = 64

# Candidate fields.
C_TYPE = 0
C_TARGET = 1
C_VALUE = 2
C_JOKERS = 3  # jokers taken from the hand (-1: an exchange gives one)
C_RES1 = 4
C_RES2 = 5
C_PURE = 6
C_NEWJ = 7  # jokers put into new melds
C_FREED = 8
C_SUIT = 9
C_RANK = 10
C_LO = 11
C_HI = 12
C_JPOS = 13
C_SUITS = 14
C_XSUIT = 15
C_NC = 16
C_MASK = 17  # bit mask of the natural kinds the move uses
C_CARDS = 18
MAX_MELD_CARDS = 14
C_WIDTH = C_CARDS + MAX_MELD_CARDS
MOVE_NEW_SET = 0
MOVE_NEW_RUN = 1
MOVE_RUN_BLOCK = 2
MOVE_SET_ADD = 3
MOVE_RUN_EXCHANGE = 4
MAX_CANDIDATES = 4096
MAX_DEPTH = 16
RES_LOW = 0
RES_HIGH = 1
RES_JOKER = 2
RES_SET = 3

# Scratch layout (int64[SCRATCH_SIZE]).
S_CHOSEN = 0
S_START = S_CHOSEN + MAX_DEPTH
S_BEST = S_START + MAX_DEPTH + 1
S_RES = S_BEST + MAX_DEPTH
S_MARK = S_RES + 4 * MAX_TABLE  # 53 flags: kinds some new meld could use
S_SUFFIX = S_MARK + 53  # kinds (bit 52: a joker) that moves c.. could still lay
SCRATCH_SIZE = S_SUFFIX + MAX_CANDIDATES + 1
JOKER_BIT = np.int64(1) << 52
OUT_BIT = 1 << 40
LAID_SHIFT = 16
LEFT_LIMIT = 65535


@jit_inline
def kind_at_nb(suit, pos):
    """The kind at run position ``pos`` (1..14) of ``suit``: 14 is the ace again."""
    return suit * 13 + (0 if pos == 14 else pos - 1)


@jit_inline
def _begin(cand, n, move, target, value):
    if n < MAX_CANDIDATES:
        row = cand[n]
        for f in range(C_CARDS):
            row[f] = 0
        row[C_TYPE] = move
        row[C_TARGET] = target
        row[C_VALUE] = value
        row[C_RES1] = -1
        row[C_RES2] = -1
        row[C_XSUIT] = -1


@jit_inline
def _add_card(cand, n, kind):
    if n < MAX_CANDIDATES:
        k = cand[n, C_NC]
        cand[n, C_CARDS + k] = kind
        cand[n, C_NC] = k + 1
        cand[n, C_MASK] |= np.int64(1) << kind


@jit
def _run_candidates_nb(counts, jokers, tabs, cand, n):
    """New runs: 3+ naturals in sequence, or 2+ naturals and a joker standing for any one
    position (a missing card or one held but wanted elsewhere). Of the two ends a joker
    could extend, only the higher (worth at least as much) is listed."""
    for suit in range(4):
        held = 0
        for r in range(13):
            held += 1 if counts[suit * 13 + r] > 0 else 0
        if held < 2:
            continue  # a run needs two naturals of its suit
        for lo in range(1, 14):
            if counts[kind_at_nb(suit, lo)] == 0 and (
                    jokers == 0 or counts[kind_at_nb(suit, lo + 1)] == 0):
                continue  # a missing first card is only a joker's, before a held one
            gaps = 0
            gap = 0
            value = 0
            for hi in range(lo, 15):
                if lo == 1 and hi == 14:
                    break
                value += tabs[TB_POS + hi]
                if counts[kind_at_nb(suit, hi)] == 0:
                    gaps += 1
                    gap = hi
                    if gaps > 1 or jokers == 0:
                        break
                if hi - lo < 2:
                    continue
                if gaps == 1:
                    if gap != lo or hi == 14:
                        _begin(cand, n, MOVE_NEW_RUN, -1, value)
                        _fill_run(cand, n, suit, lo, hi, gap)
                        n += 1
                    continue
                _begin(cand, n, MOVE_NEW_RUN, -1, value)
                if n < MAX_CANDIDATES:
                    cand[n, C_PURE] = 1
                _fill_run(cand, n, suit, lo, hi, 0)
                n += 1
                if jokers > 0:
                    first = lo + 1 if hi < 14 else lo
                    for jpos in range(first, hi + 1):
                        _begin(cand, n, MOVE_NEW_RUN, -1, value)
                        _fill_run(cand, n, suit, lo, hi, jpos)
                        n += 1
    return n


@jit_inline
def _fill_run(cand, n, suit, lo, hi, jpos):
    if n < MAX_CANDIDATES:
        cand[n, C_SUIT] = suit
        cand[n, C_LO] = lo
        cand[n, C_HI] = hi
        cand[n, C_JPOS] = jpos
        if jpos > 0:
            cand[n, C_JOKERS] = 1
            cand[n, C_NEWJ] = 1
        for p in range(lo, hi + 1):
            if p != jpos:
                _add_card(cand, n, kind_at_nb(suit, p))


@jit
def _set_candidates_nb(counts, jokers, tabs, cand, n):
    """New sets: 3-4 naturals of different suits, or 2-3 and a joker."""
    for rank in range(13):
        present = 0
        for suit in range(4):
            if counts[suit * 13 + rank] > 0:
                present |= 1 << suit
        held = (present & 1) + (present >> 1 & 1) + (present >> 2 & 1) + (present >> 3 & 1)
        if held < 2 or (held == 2 and jokers == 0):
            continue
        for sub in range(1, 16):
            if sub & present != sub:
                continue
            size = (sub & 1) + (sub >> 1 & 1) + (sub >> 2 & 1) + (sub >> 3 & 1)
            for joker in range(2):
                total = size + joker
                if total < 3 or total > 4 or size < 2 or (joker == 1 and jokers == 0):
                    continue
                _begin(cand, n, MOVE_NEW_SET, -1, total * tabs[TB_SET + rank])
                if n < MAX_CANDIDATES:
                    cand[n, C_RANK] = rank
                    cand[n, C_SUITS] = sub
                    cand[n, C_JOKERS] = joker
                    cand[n, C_NEWJ] = joker
                    cand[n, C_JPOS] = joker
                for suit in range(4):
                    if sub >> suit & 1:
                        _add_card(cand, n, suit * 13 + rank)
                n += 1
    return n


@jit
def _run_block_candidates_nb(counts, jokers, table, m, tabs, cand, n):
    """Blocks laid off at either end of table run ``m``; a joker may stand for any one
    position of a block if the run holds none."""
    suit = table[m, T_SUIT]
    lo = table[m, T_LO]
    hi = table[m, T_HI]
    joker_ok = jokers > 0 and table[m, T_JOKER] == 0
    for side in range(2):
        missing = 0
        gap = 0
        value = 0
        for k in range(1, 14):
            p = lo - k if side == 0 else hi + k
            if p < 1 or p > 14 or (p == 1 and hi == 14) or (p == 14 and lo == 1):
                break
            value += tabs[TB_POS + p]
            if counts[kind_at_nb(suit, p)] == 0:
                missing += 1
                gap = p
                if missing > 1 or not joker_ok:
                    break
            b_lo = p if side == 0 else hi + 1
            b_hi = lo - 1 if side == 0 else p
            if missing == 1:
                n = _block_nb(cand, n, m, side, suit, b_lo, b_hi, gap, value)
            else:
                n = _block_nb(cand, n, m, side, suit, b_lo, b_hi, 0, value)
                if joker_ok:
                    for q in range(b_lo, b_hi + 1):
                        n = _block_nb(cand, n, m, side, suit, b_lo, b_hi, q, value)
    return n


@jit_inline
def _block_nb(cand, n, m, side, suit, b_lo, b_hi, jpos, value):
    _begin(cand, n, MOVE_RUN_BLOCK, m, value)
    if n < MAX_CANDIDATES:
        cand[n, C_RES1] = m * 4 + (RES_LOW if side == 0 else RES_HIGH)
        cand[n, C_SUIT] = suit
        cand[n, C_LO] = b_lo
        cand[n, C_HI] = b_hi
        if jpos > 0:
            cand[n, C_RES2] = m * 4 + RES_JOKER
            cand[n, C_JOKERS] = 1
            cand[n, C_JPOS] = jpos
        for q in range(b_lo, b_hi + 1):
            if q != jpos:
                _add_card(cand, n, kind_at_nb(suit, q))
    return n + 1


@jit
def _set_add_candidates_nb(counts, jokers, table, m, exchanges, with_exchange, tabs, cand, n):
    """Cards added to table set ``m`` (missing suits, a joker if it holds none), with
    (``with_exchange``) or without the exchange of its joker for a natural of a missing
    suit: one move per combination, so no suit is used twice."""
    rank = table[m, T_RANK]
    suits = table[m, T_SUITS]
    has_joker = table[m, T_JOKER]
    size = table[m, T_SIZE]
    missing = 15 & ~suits
    held = 0
    for suit in range(4):
        if counts[suit * 13 + rank] > 0:
            held |= 1 << suit
    if missing & held == 0 and (jokers == 0 or has_joker != 0 or with_exchange):
        return n  # nothing of this rank in hand, and no joker to add
    for x in range(-1, 4):
        if (x >= 0) != with_exchange:
            continue
        if x >= 0 and (not exchanges or has_joker == 0 or not (missing & held) >> x & 1):
            continue
        free = missing & held & ~(1 << x if x >= 0 else 0)
        for sub in range(16):
            if sub & free != sub:
                continue
            count = (sub & 1) + (sub >> 1 & 1) + (sub >> 2 & 1) + (sub >> 3 & 1)
            for addj in range(2):
                if addj == 1 and (has_joker != 0 or jokers == 0):
                    continue
                if size + count + addj > 4 or (x < 0 and count + addj == 0):
                    continue
                ex = 1 if x >= 0 else 0
                _begin(cand, n, MOVE_SET_ADD, m, (count + addj + ex) * tabs[TB_SET + rank])
                if n < MAX_CANDIDATES:
                    cand[n, C_RES1] = m * 4 + RES_SET
                    cand[n, C_RANK] = rank
                    cand[n, C_SUITS] = sub
                    cand[n, C_XSUIT] = x
                    cand[n, C_JOKERS] = addj - ex
                    cand[n, C_FREED] = ex
                    cand[n, C_JPOS] = addj
                for suit in range(4):
                    if sub >> suit & 1 or suit == x:
                        _add_card(cand, n, suit * 13 + rank)
                n += 1
    return n


@jit
def candidates_nb(counts, table, n_table, exchanges, tabs, cand):
    """Every move of the hand ``counts`` against ``table[:n_table]``; returns how many
    (moves past ``MAX_CANDIDATES`` are counted, not written). Exchanges come first, so a
    freed joker is in hand when the search reaches the new melds."""
    n = 0
    jokers = counts[JOKER]
    freed = 0
    for m in range(n_table):
        if table[m, T_KIND] == KIND_RUN and exchanges and table[m, T_JOKER] > 0:
            kind = kind_at_nb(table[m, T_SUIT], table[m, T_JOKER])
            if counts[kind] > 0:
                _begin(cand, n, MOVE_RUN_EXCHANGE, m, tabs[TB_POS + table[m, T_JOKER]])
                if n < MAX_CANDIDATES:
                    cand[n, C_RES1] = m * 4 + RES_JOKER
                    cand[n, C_JOKERS] = -1
                    cand[n, C_FREED] = 1
                _add_card(cand, n, kind)
                n += 1
                freed += 1
        elif table[m, T_KIND] == KIND_SET:
            before = n
            n = _set_add_candidates_nb(counts, jokers, table, m, exchanges, True, tabs, cand, n)
            freed += 1 if n > before else 0
    n = _run_candidates_nb(counts, jokers + freed, tabs, cand, n)
    n = _set_candidates_nb(counts, jokers + freed, tabs, cand, n)
    for m in range(n_table):
        if table[m, T_KIND] == KIND_RUN:
            n = _run_block_candidates_nb(counts, jokers, table, m, tabs, cand, n)
        elif table[m, T_KIND] == KIND_SET:
            n = _set_add_candidates_nb(counts, jokers, table, m, exchanges, False, tabs, cand, n)
    return n


@jit_inline
def _fits_nb(counts, cand, c, scratch, held):
    """Whether move ``c`` can be made: its cards are held (``held``: the bit mask of
    natural kinds with a card in hand), its jokers too, its table resources free."""
    row = cand[c]
    if row[C_MASK] & ~held != 0:
        return False
    if row[C_JOKERS] > 0 and counts[JOKER] < row[C_JOKERS]:
        return False
    if row[C_RES1] >= 0 and scratch[S_RES + row[C_RES1]] != 0:
        return False
    if row[C_RES2] >= 0 and scratch[S_RES + row[C_RES2]] != 0:
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
        scratch[S_RES + row[C_RES2]] += sign
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
def _reach_nb(counts, suffix, held, tabs):
    """(most value the moves of ``suffix`` could still lay, cards they cannot lay)."""
    reach = 0
    loose = 0
    m = suffix & held
    while m != 0:
        k = lowest_card_nb(m)
        m &= m - 1
        reach += counts[k] * tabs[TB_MAXLAID + k]
    if suffix & JOKER_BIT:
        reach += counts[JOKER] * tabs[TB_MAXLAID + JOKER]
    else:
        loose += counts[JOKER]
    rest = held & ~suffix
    while rest != 0:
        k = lowest_card_nb(rest)
        rest &= rest - 1
        loose += counts[k]
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
def _cannot_open_nb(counts, n, cand, dry_ok, open_min, tabs, scratch):
    """Whether no lay-down of an unopened hand can be valid: its new melds could total
    less than the opening minimum even with every card any of them uses, and (if a dry
    rami is possible) more than one card is in no new meld at all."""
    bound = 0
    for k in range(53):
        scratch[S_MARK + k] = 0
    for c in range(n):
        if cand[c, C_TYPE] <= MOVE_NEW_RUN:
            for i in range(cand[c, C_NC]):
                kind = cand[c, C_CARDS + i]
                if scratch[S_MARK + kind] == 0:
                    scratch[S_MARK + kind] = 1
                    bound += counts[kind] * tabs[TB_MAXLAID + kind]
    bound += counts[JOKER] * tabs[TB_MAXLAID + JOKER]
    if bound >= open_min:
        return False
    if not dry_ok:
        return True
    loose = 0
    for k in range(JOKER):
        if scratch[S_MARK + k] == 0:
            loose += counts[k]
    return loose > 1


@jit
def best_plan_nb(counts, n_cand, cand, opened, dry_ok, open_min, must_kind, must_max,
                 rules, tabs, scratch):
    """The best lay-down of ``counts`` over moves ``cand[:n_cand]`` (see the module
    docstring). Returns ``(score, moves)``; the moves are ``scratch[S_BEST:][:moves]``
    and the score packs ``OUT_BIT`` (goes out), the laid value (``>> LAID_SHIFT``) and
    ``LEFT_LIMIT`` minus the value left in hand. ``counts`` comes back unchanged."""
    n = min(n_cand, MAX_CANDIDATES)
    for c in range(n):  # free every table resource a move could use
        if cand[c, C_RES1] >= 0:
            scratch[S_RES + cand[c, C_RES1]] = 0
        if cand[c, C_RES2] >= 0:
            scratch[S_RES + cand[c, C_RES2]] = 0
    exchanges = _suffix_masks_nb(n, cand, scratch)
    if not opened and _cannot_open_nb(counts, n, cand, dry_ok, open_min, tabs, scratch):
        if must_kind >= 0 and counts[must_kind] > must_max:
            return -1, 0
        return LEFT_LIMIT - _hand_totals_nb(counts, tabs)[1], 0
    discard_out = rules[R_DISCARD_OUT] != 0
    pure_needed = rules[R_OPEN_PURE_RUN] != 0
    cards, left_value, left_bound = _hand_totals_nb(counts, tabs)
    held = _held_nb(counts)
    best = LEFT_LIMIT - left_value  # laying nothing
    if must_kind >= 0 and counts[must_kind] > must_max:
        best = -1  # a card taken from the discard pile must be used
    best_depth = 0
    laid = 0
    new_value = 0
    pure = 0
    new_jokers = 0
    freed = 0
    depth = 0
    scratch[S_START] = 0
    while True:
        c = scratch[S_START + depth]
        if exchanges:
            limit = OUT_BIT + ((laid + left_bound) << LAID_SHIFT) + LEFT_LIMIT
            reach = left_bound
        else:
            reach, loose = _reach_nb(counts, scratch[S_SUFFIX + c], held, tabs)
            out_bit = OUT_BIT if loose <= 1 else 0
            limit = out_bit + ((laid + reach) << LAID_SHIFT) + LEFT_LIMIT
        if best >= limit or depth >= MAX_DEPTH or (
                not opened and not dry_ok and new_value < open_min
                and new_value + reach < open_min):
            c = n
        while c < n and not _fits_nb(counts, cand, c, scratch, held):
            c += 1
        if c < n:
            d_cards, d_value, d_bound = _move_nb(counts, cand, c, scratch, tabs, 1)
            held = _held_after_nb(counts, cand, c, held)
            cards -= d_cards
            left_value -= d_value
            left_bound -= d_bound
            laid += cand[c, C_VALUE]
            if cand[c, C_TYPE] <= MOVE_NEW_RUN:
                new_value += cand[c, C_VALUE]
                new_jokers += cand[c, C_NEWJ]
                pure += cand[c, C_PURE]
            freed += cand[c, C_FREED]
            scratch[S_CHOSEN + depth] = c
            scratch[S_START + depth] = c + 1
            depth += 1
            scratch[S_START + depth] = c
            out = cards == 1 or (cards == 0 and not discard_out)
            ok = cards >= (1 if discard_out else 0) and new_jokers >= freed
            if ok and must_kind >= 0 and counts[must_kind] > must_max:
                ok = False
            if ok and not opened:
                ok = (new_value >= open_min and (pure > 0 or not pure_needed)) or (
                    out and dry_ok)
            if ok:
                score = (OUT_BIT if out else 0) + (laid << LAID_SHIFT) + LEFT_LIMIT - left_value
                if score > best:
                    best = score
                    best_depth = depth
                    for i in range(depth):
                        scratch[S_BEST + i] = scratch[S_CHOSEN + i]
        else:
            if depth == 0:
                break
            depth -= 1
            c = scratch[S_CHOSEN + depth]
            d_cards, d_value, d_bound = _move_nb(counts, cand, c, scratch, tabs, -1)
            held |= cand[c, C_MASK]
            cards += d_cards
            left_value += d_value
            left_bound += d_bound
            laid -= cand[c, C_VALUE]
            if cand[c, C_TYPE] <= MOVE_NEW_RUN:
                new_value -= cand[c, C_VALUE]
                new_jokers -= cand[c, C_NEWJ]
                pure -= cand[c, C_PURE]
            freed -= cand[c, C_FREED]
    return best, best_depth


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
        table[m, T_OWNER] = owner
        table[m, T_SIZE] = added
        return n_table + 1
    m = row[C_TARGET]
    if move == MOVE_RUN_BLOCK:
        table[m, T_LO] = min(table[m, T_LO], row[C_LO])
        table[m, T_HI] = max(table[m, T_HI], row[C_HI])
        if row[C_JPOS] > 0:
            table[m, T_JOKER] = row[C_JPOS]
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
        table[m, T_JOKER] = 0
    return n_table
