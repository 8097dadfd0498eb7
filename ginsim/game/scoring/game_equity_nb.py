"""A two-player game to the target valued from every score (docs/rules.md §3, §7).

Each hand is an independent draw of a hand result given who deals it: its winner (side
0 or 1), the points it adds to the winner's total and the boxes it is worth. Dead and
scoreless hands are dealt again by the same dealer, so they are left out of the chances
(they only lengthen the game). The state is ``(d, a, b)``: who deals the next hand and
the two totals, each below the target ``T``. Every hand raises one total, so the tables
fill from the high scores down, both dealers at once.

In ``tables[d, a, b]``, from side 0's view, with a game starting at ``a`` to ``b`` with
no boxes yet (a side with points has won a hand, so only a side at 0 can be shut out):

- ``T_WIN``: the chance that side 0 wins the game;
- ``T_VALUE``: the expected final margin, side 0's total minus side 1's, with the
  game bonus, the boxes won from here and the shutout (bonus or doubling);
- ``T_SHUT0``/``T_SHUT1``: the chance that side 0 (1) wins by a shutout (0 unless
  the other side is at 0), which doubling needs: boxes won before the state double too;
- ``T_HANDS``: the expected hands still to play, dead hands included.
"""

from .._jit import jit
from ..rules import SHUTOUT_BONUS, SHUTOUT_DOUBLE
from .deal_order_nb import next_dealer_code_nb
from .game_scoring_nb import (
    GR_BOX_BONUS,
    GR_GAME_BONUS,
    GR_NEXT_DEALER,
    GR_SHUTOUT,
    GR_SHUTOUT_BONUS,
    GR_TARGET,
)

# Columns of an outcome row.
O_DEALER = 0
O_WINNER = 1
O_POINTS = 2
O_BOXES = 3
O_WIDTH = 4
# The tables, side by side in the last axis.
T_WIN = 0
T_VALUE = 1
T_SHUT0 = 2
T_SHUT1 = 3
T_HANDS = 4
T_WIDTH = 5


@jit
def _final_nb(winner, total, other, boxes, gr):
    """Side 0's final margin when ``winner`` reaches the target with ``total`` points
    (``boxes`` won since the state), the other side at ``other``."""
    score = total + boxes * gr[GR_BOX_BONUS] + gr[GR_GAME_BONUS]
    if other == 0:
        if gr[GR_SHUTOUT] == SHUTOUT_DOUBLE:
            score *= 2
        elif gr[GR_SHUTOUT] == SHUTOUT_BONUS:
            score += gr[GR_SHUTOUT_BONUS]
    margin = score - other
    return margin if winner == 0 else -margin


@jit
def game_equity_nb(outcomes, chance, dead, gr, tables):
    """Fill ``tables[d, a, b, T_*]`` (``(2, T, T, T_WIDTH)``: the module's tables, side by
    side so that one state's five numbers share a cache line) from ``outcomes`` (int64
    rows ``O_*``, sorted by dealer), ``chance[i]``, the chance of outcome ``i`` among the
    won hands its dealer deals (each dealer's chances sum to 1), and ``dead[d]``, the
    chance that a hand dealt by ``d`` is dead or scoreless; ``gr``: the packed game
    rules."""
    target = gr[GR_TARGET]
    box = gr[GR_BOX_BONUS]
    double = gr[GR_SHUTOUT] == SHUTOUT_DOUBLE
    mode = gr[GR_NEXT_DEALER]
    m = outcomes.shape[0]
    split = 0  # outcomes[:split] are dealt by side 0
    while split < m and outcomes[split, O_DEALER] == 0:
        split += 1
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            for d in range(2):
                w = 0.0
                v = 0.0
                s0 = 0.0
                s1 = 0.0
                h = 0.0
                for i in range(split if d else 0, m if d else split):
                    p = chance[i]
                    if p == 0.0:
                        continue
                    winner = outcomes[i, O_WINNER]
                    k = outcomes[i, O_POINTS]
                    x = outcomes[i, O_BOXES]
                    if winner == 0:
                        if a + k >= target:
                            w += p
                            v += p * _final_nb(0, a + k, b, x, gr)
                            if b == 0:
                                s0 += p
                            continue
                        later = tables[next_dealer_code_nb(d, 0, mode), a + k, b]
                        v += p * (later[T_VALUE]
                                  + x * box * (1.0 + (later[T_SHUT0] if double else 0.0)))
                    else:
                        if b + k >= target:
                            v += p * _final_nb(1, b + k, a, x, gr)
                            if a == 0:
                                s1 += p
                            continue
                        later = tables[next_dealer_code_nb(d, 1, mode), a, b + k]
                        v += p * (later[T_VALUE]
                                  - x * box * (1.0 + (later[T_SHUT1] if double else 0.0)))
                    w += p * later[T_WIN]
                    s0 += p * later[T_SHUT0]
                    s1 += p * later[T_SHUT1]
                    h += p * later[T_HANDS]
                here = tables[d, a, b]
                here[T_WIN] = w
                here[T_VALUE] = v
                here[T_SHUT0] = s0
                here[T_SHUT1] = s1
                here[T_HANDS] = 1.0 / (1.0 - dead[d]) + h


@jit
def _cell_nb(tables, one_a, one_b, none, entry, ea, eb, a, b, d, q, put, value):
    """Number ``q`` (a ``T_*``) of a Hollywood game's state (see
    :func:`entry_tables_nb`); with ``put``, set it to ``value`` first."""
    if ea == entry and eb == entry:
        if put:
            tables[d, a, b, q] = value
        return tables[d, a, b, q]
    if ea == entry:
        if put:
            one_a[eb, d, a, q] = value
        return one_a[eb, d, a, q]
    if eb == entry:
        if put:
            one_b[ea, d, b, q] = value
        return one_b[ea, d, b, q]
    if put:
        none[ea, eb, d, q] = value
    return none[ea, eb, d, q]


@jit
def _entry_state_nb(outcomes, chance, dead, gr, cells, got, ea, eb, a, b, d):
    """Fill one state of :func:`entry_tables_nb` from the states it leads to."""
    target = gr[GR_TARGET]
    box = gr[GR_BOX_BONUS]
    double = gr[GR_SHUTOUT] == SHUTOUT_DOUBLE
    entry = cells[4]
    w = 0.0
    v = 0.0
    s0 = 0.0
    s1 = 0.0
    h = 0.0
    for i in range(outcomes.shape[0]):
        p = chance[i]
        if p == 0.0 or outcomes[i, O_DEALER] != d:
            continue
        winner = outcomes[i, O_WINNER]
        k = outcomes[i, O_POINTS]
        x = outcomes[i, O_BOXES]
        nd = next_dealer_code_nb(d, winner, gr[GR_NEXT_DEALER])
        if (ea if winner == 0 else eb) < entry:  # a hand won that this game does not count
            na, nb, nea, neb, sign = a, b, ea + (winner == 0), eb + (winner == 1), 0.0
        elif winner == 0:
            if a + k >= target:
                w += p
                v += p * _final_nb(0, a + k, b, x, gr)
                if b == 0:
                    s0 += p
                continue
            na, nb, nea, neb, sign = a + k, b, ea, eb, 1.0
        else:
            if b + k >= target:
                v += p * _final_nb(1, b + k, a, x, gr)
                if a == 0:
                    s1 += p
                continue
            na, nb, nea, neb, sign = a, b + k, ea, eb, -1.0
        for q in range(T_WIDTH):
            got[q] = _cell_nb(*cells, nea, neb, na, nb, nd, q, False, 0.0)
        shut = got[T_SHUT0] if winner == 0 else got[T_SHUT1]
        v += p * (got[T_VALUE] + sign * x * box * (1.0 + (shut if double else 0.0)))
        w += p * got[T_WIN]
        s0 += p * got[T_SHUT0]
        s1 += p * got[T_SHUT1]
        h += p * got[T_HANDS]
    _cell_nb(*cells, ea, eb, a, b, d, T_WIN, True, w)
    _cell_nb(*cells, ea, eb, a, b, d, T_VALUE, True, v)
    _cell_nb(*cells, ea, eb, a, b, d, T_SHUT0, True, s0)
    _cell_nb(*cells, ea, eb, a, b, d, T_SHUT1, True, s1)
    _cell_nb(*cells, ea, eb, a, b, d, T_HANDS, True, 1.0 / (1.0 - dead[d]) + h)


@jit
def entry_tables_nb(outcomes, chance, dead, gr, tables, entry, states):
    """Hollywood's game ``entry + 1`` (docs/rules.md §8.3) before both players are in it:
    a player's first ``entry`` hands won do not count in it. Once both are in, it is a
    standard game over the hands it counts, valued by ``tables`` (filled by
    :func:`game_equity_nb`); this fills the states before, ``T_*`` numbers as there, in
    ``states = (one_a, one_b, none, scratch)``: ``one_a[eb, d, a]`` (side 0 is in with
    ``a`` points, side 1 has won ``eb < entry`` hands), ``one_b[ea, d, b]`` the other way
    round, ``none[ea, eb, d]`` (neither is in); ``scratch`` holds ``T_WIDTH`` numbers.
    ``none[0, 0, d]`` is the game's value when the session starts."""
    target = gr[GR_TARGET]
    one_a, one_b, none, got = states
    cells = (tables, one_a, one_b, none, entry)
    # a state leads to states with more wins or more points: those are filled first
    for ea in range(entry, -1, -1):
        for eb in range(entry, -1, -1):
            if ea == entry and eb == entry:
                continue
            for a in range(target - 1 if ea == entry else 0, -1, -1):
                for b in range(target - 1 if eb == entry else 0, -1, -1):
                    for d in range(2):
                        _entry_state_nb(outcomes, chance, dead, gr, cells, got, ea, eb, a, b,
                                        d)
