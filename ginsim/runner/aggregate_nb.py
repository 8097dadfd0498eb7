"""Aggregate kernel: add a chunk's per-hand records into flat count and moment tables.

Contract (like every ginsim kernel): allocates nothing. The Python layer
(:mod:`ginsim.runner.aggregate`) copies the key and value columns out of the record
array, lays the tables out end to end in one flat accumulator and hands everything in.
"""

from ..game._jit import jit


@jit
def accumulate_nb(keys, lo, size, fields, strides, offsets, values, acc):
    """Add every hand (column of ``keys``/``values``) to each table; returns misses.

    ``keys`` int64[F, n]: key fields; ``lo``/``size`` int64[F]: each field's lowest
    value and bin count. Table ``t`` uses fields ``fields[t, :]`` (-1 pads) with
    ``strides[t, :]`` and starts at cell ``offsets[t]`` of ``acc`` (int64[cells, C]).
    ``values`` int64[V, n]. Columns of ``acc``: hands, the V sums, the V sums of
    squares, and the sum of ``values[0] * values[1]``. A hand with a key outside its
    bins is counted in the return value instead of being added.
    """
    n = keys.shape[1]
    n_tables = fields.shape[0]
    n_values = values.shape[0]
    misses = 0
    for r in range(n):
        for t in range(n_tables):
            cell = offsets[t]
            ok = True
            for d in range(fields.shape[1]):
                f = fields[t, d]
                if f < 0:
                    break
                v = keys[f, r] - lo[f]
                if v < 0 or v >= size[f]:
                    ok = False
                    break
                cell += v * strides[t, d]
            if not ok:
                misses += 1
                continue
            acc[cell, 0] += 1
            for j in range(n_values):
                x = values[j, r]
                acc[cell, 1 + j] += x
                acc[cell, 1 + n_values + j] += x * x
            acc[cell, 1 + 2 * n_values] += values[0, r] * values[1, r]
    return misses
