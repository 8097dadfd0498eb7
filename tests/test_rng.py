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


def test_gin_stream_ids_are_distinct():
    from ginsim.game.rng_nb import STREAM_IDS

    assert len(set(STREAM_IDS.values())) == len(STREAM_IDS)


def test_the_cut_of_two_is_the_keys_low_bit_and_of_three_its_int64_remainder():
    """The cut is one rule for two and three players; the games recorded before it was
    one rule took ``key & 1`` and (numba's int64 reading of the key) ``key % 3``."""
    from numba import njit

    from ginsim.game.rng_nb import CUT_STREAM, cut_dealer_nb

    @njit
    def old_three(key):
        return int(stream_key_nb(key, 0, CUT_STREAM) % 3)

    keys = [np.uint64(k) for k in (*range(200), 2**63 - 1, 2**63, 2**64 - 1)]
    for key in keys:
        cut = int(stream_key_nb(key, 0, CUT_STREAM))
        assert cut_dealer_nb(key, 2) == cut & 1
        assert cut_dealer_nb(key, 3) == old_three(key)
        signed = cut - 2**64 if cut >= 2**63 else cut
        assert cut_dealer_nb(key, 3) == signed % 3  # Python's floor remainder of the int64


def test_rotating_dealer_passes_the_deal_round_the_table():
    from ginsim.game.rng_nb import rotating_dealer_nb

    for players in (2, 3, 6):
        seats = [rotating_dealer_nb(d, players) for d in range(4 * players)]
        assert seats == [d % players for d in range(4 * players)]
        assert sorted(seats[:players]) == list(range(players))


def test_a_derived_seed_is_always_a_seed():
    from ginsim.game.rng_nb import ADVISOR_RUN_STRIDE, MAX_SEED, check_seed, derived_seed

    for seed in (0, 1, MAX_SEED - 1, MAX_SEED):
        for step in range(5):
            d = derived_seed(seed, step, ADVISOR_RUN_STRIDE)
            assert check_seed(d) == d == (seed + step * ADVISOR_RUN_STRIDE) % 2**64
    assert derived_seed(MAX_SEED, 1) == 0
