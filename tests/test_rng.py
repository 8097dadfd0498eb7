"""The counter-based generator's draws are uniform over their whole range.

``below_nb`` multiplies 53 random bits by ``n``, so it is exact only for small ``n``;
probabilities go through ``unit_nb`` (a bug once drew ``below_nb(rng, s, 1 << 30)`` and
got numbers below 2048, which made the belief's Metropolis moves accept almost all)."""

import numpy as np
from scipy import stats

from ginsim.game.rng_nb import below_nb, stream_key_nb, unit_nb


def streams(seed: int) -> np.ndarray:
    return np.array([stream_key_nb(np.uint64(seed), 0, s) for s in range(3)], dtype=np.uint64)


def test_unit_is_uniform_on_zero_one():
    rng = streams(3)
    draws = np.array([unit_nb(rng, 2) for _ in range(20000)])
    assert draws.min() >= 0.0 and draws.max() < 1.0
    assert stats.kstest(draws, "uniform").pvalue > 1e-3
    assert draws.max() > 0.999 and draws.min() < 0.001


def test_below_is_uniform_over_a_deck():
    rng = streams(5)
    counts = np.bincount([below_nb(rng, 1, 52) for _ in range(52 * 400)], minlength=52)
    assert counts.shape == (52,)
    assert stats.chisquare(counts).pvalue > 1e-3
