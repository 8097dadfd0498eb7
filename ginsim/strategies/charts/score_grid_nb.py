"""The score chart's one bucket definition (layout in :mod:`.score_charts`): which of
six buckets a side's distance to the game's target falls in, for the game kernels and
the Python layer alike."""

from ...game._jit import jit

SCORE_BUCKETS = 6
#: the largest distance of each bucket but the last, as a share of the target (for a
#: target of 100: 1-10, 11-25, 26-45, 46-65, 66-85, 86-100 points to go)
DISTANCE_SHARES = (0.10, 0.25, 0.45, 0.65, 0.85)


@jit
def distance_bucket_nb(distance, edges):
    """The bucket of a side ``distance`` points short of the target: the first whose
    edge (``edges``, int64[SCORE_BUCKETS - 1], increasing) it does not pass."""
    i = 0
    while i < edges.shape[0] and distance > edges[i]:
        i += 1
    return i
