"""Counter-based random numbers: every stream is a pure function of its key.

A hand's deck comes from the key ``(seed, deal, 0)``, each seat's own choices (the
``random`` strategy) from ``(seed, hand, 1 + seat)``, so a hand's records never depend on
which chunk, worker or order played it. The generator is SplitMix64 over a Weyl
sequence; each stream's state is one uint64 in a caller's array (``state[stream]``).
"""

import numpy as np

from ._jit import jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)
S53 = np.uint64(53)
UNIT = 1.0 / 9007199254740992.0  # 2**-53


@jit
def mix64_nb(z):
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@jit
def stream_key_nb(seed, index, stream):
    """The starting state of stream ``stream`` of item ``index`` under ``seed``."""
    z = mix64_nb(np.uint64(seed) + GOLDEN)
    z = mix64_nb(z ^ (np.uint64(index) * GOLDEN))
    return mix64_nb(z + np.uint64(stream) * MIX2)


@jit
def next_u64_nb(state, stream):
    state[stream] = state[stream] + GOLDEN
    return mix64_nb(state[stream])


@jit
def below_nb(state, stream, n):
    """A uniform int in ``0..n-1`` for ``n <= 2048`` (53 random bits times ``n`` must fit
    64; bias below 2**-47 for n <= 52). For a probability use :func:`unit_nb`."""
    return np.int64(((next_u64_nb(state, stream) >> S11) * np.uint64(n)) >> S53)


@jit
def unit_nb(state, stream):
    """A uniform float in ``[0, 1)`` from 53 random bits."""
    return (next_u64_nb(state, stream) >> S11) * UNIT


@jit
def shuffle_nb(deck, state, stream):
    """Fisher-Yates shuffle of ``deck`` in place."""
    for i in range(deck.shape[0] - 1, 0, -1):
        j = below_nb(state, stream, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@jit
def shuffle_two_pass_nb(deck, state, stream, draws):
    """The same permutation as :func:`shuffle_nb`, with the stream's numbers drawn first
    into ``draws`` (uint64, at least ``len(deck) - 1``): independent draws pipeline, so
    this is about twice as fast."""
    s = state[stream]
    n = deck.shape[0]
    for k in range(n - 1):
        draws[k] = mix64_nb(s + np.uint64(k + 1) * GOLDEN)
    state[stream] = s + np.uint64(n - 1) * GOLDEN
    for i in range(n - 1, 0, -1):
        j = np.int64(((draws[n - 1 - i] >> S11) * np.uint64(i + 1)) >> S53)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
