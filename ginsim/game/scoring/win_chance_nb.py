"""The chance of winning a two-player game to a target from each score (docs/rules.md §7).

A game's hands are independent draws of a hand result: either side wins ``k`` points
with the same chance ``chance[k]`` (players of equal strength; dead and scoreless hands
are dealt again, so they are left out). The chance ``W[a, b]`` that the side with ``a``
points wins against ``b`` then solves, for ``a, b`` below the target ``T``::

    W[a, b] = sum_k chance[k] * (1 if a + k >= T else W[a + k, b])
            + sum_k chance[k] * (0 if b + k >= T else W[a, b + k])

Every hand raises one score, so the table fills from the high scores down.
"""

from .._jit import jit


@jit
def win_chance_table_nb(chance, table):
    """Fill ``table[a, b]`` (``T x T``) with the chance of winning from ``a`` points
    against ``b``; ``chance[k]`` is one side's chance of winning a hand by ``k`` points
    (``chance[0]`` unused; the chances of both sides sum to 1)."""
    target = table.shape[0]
    top = chance.shape[0]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            w = 0.0
            for k in range(1, top):
                p = chance[k]
                if p == 0.0:
                    continue
                w += p if a + k >= target else p * table[a + k, b]
                if b + k < target:
                    w += p * table[a, b + k]
            table[a, b] = w
