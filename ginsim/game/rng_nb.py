"""Random streams, seeds and dealers: every random number of a run follows from here.

Counter-based random numbers: every stream is a pure function of its key. A hand's deck
comes from the key ``(seed, deal, DECK_STREAM)``, each seat's own choices (the
``random`` strategy) from ``(seed, hand, SEAT_STREAMS + seat)``, so a hand's records
never depend on which chunk, worker or order played it. The generator is SplitMix64
over a Weyl sequence; each stream's state is one uint64 in a caller's array
(``state[stream]``). The stream ids are named in :data:`STREAM_IDS`, the one list of
them.

Seeds: one seed space (:data:`SEEDS`, checked by :func:`check_seed`); a seed derived
from another (a study's streams, the belief's steps, the advisor's runs) is
:func:`derived_seed`, so it stays a seed. Dealers: who deals is one named rule per
kind of sequence (:func:`rotating_dealer_nb`, :func:`cut_dealer_nb`), callable from
kernels and Python alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._jit import jit
from .inputs.checks import check_int

SEEDS = 2**64  # seeds are unsigned 64-bit: 0 .. SEEDS - 1
MAX_SEED = SEEDS - 1
DEFAULT_SEED = 0  # the one default seed of every command, study and API call

#: Stream ids, the third part of a key ``(key, item, stream)``. Gin's ids differ where
#: their keys can meet; Rami's deals use their own keys (``RAMI_*``).
DECK_STREAM = 0  # (seed or game key, deal, 0): a hand's deck
SEAT_STREAMS = 1  # (key, hand, 1 + seat): seat a's and seat b's own choices
BELIEF_DECK_STREAM = 3  # (belief seed, particle, 1..3): the sampler's seats and draws
ROLLOUT_STREAM = 5  # (branch key, world, 5): a rollout's stock order
GAME_STREAM = 7  # (seed, game, 7): the game key every hand of a game is dealt from
CUT_STREAM = 9  # (game key, 0, 9): the cut for the first dealer
MC_STREAM = 11  # (seat stream, turn, 11): mc's guesses at one turn
RAMI_DEAL_STREAM = 0  # Rami (seed, deal, 0): the cards of a single deal
RAMI_GAME_DEALS = 1  # Rami (seed, game, 1 + k): the cards of deal k of a game
STREAM_IDS = {"deck": DECK_STREAM, "seat a": SEAT_STREAMS, "seat b": SEAT_STREAMS + 1,
              "belief deck": BELIEF_DECK_STREAM, "rollout": ROLLOUT_STREAM,
              "game": GAME_STREAM, "cut": CUT_STREAM, "mc": MC_STREAM}

#: A study's named streams: name -> offset from the study's seed; distinct offsets give
#: distinct seeds, so no two streams of one study share a deal.
STREAMS = {"sweep": 0, "threshold matrix": 1, "knock chart": 2, "answer why": 3,
           "game table": 4, "score games": 5}
BELIEF_STEP_STRIDE = 7919  # the belief at an event count n samples from seed + n * this
ADVISOR_RUN_STRIDE = 0x9E3779B97F4A7C15  # the advisor's run k samples from seed + k * this

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


@jit
def rotating_dealer_nb(deal, players):
    """Who deals (or starts) deal ``deal`` when the deal passes round the table: seat
    ``deal % players``. Single hands (seat a deals even hands), the teams' rounds, Rami's
    deals and Rami's games (deal ``g + k`` for deal ``k`` of game ``g``) all use it."""
    return deal % players


@jit
def cut_dealer_nb(game_key, players):
    """Who deals the first hand of a game of ``players`` players: the cut, a draw of the
    game's own stream ``(game_key, 0, CUT_STREAM)``, taken modulo ``players`` (as int64:
    the games recorded so far depend on it)."""
    return int(stream_key_nb(game_key, 0, CUT_STREAM) % players)


def check_seed(seed: Any) -> int:
    """A seed is an int in 0 .. 2**64-1 (gin's and Rami's alike)."""
    return check_int(seed, "seed", 0, MAX_SEED)


def derived_seed(seed: int, step: int, stride: int = 1) -> int:
    """The seed ``step`` strides on from ``seed``, wrapped into the seed space: the one way
    a seed is made from another, so the result is always a valid seed."""
    return (int(seed) + int(step) * int(stride)) % SEEDS


def stream_seed(seed: int, stream: str) -> int:
    """The seed of ``stream`` (a name in :data:`STREAMS`) of a study run with ``seed``:
    ``(seed + offset) % SEEDS``, always a valid seed; ValueError for an unknown stream."""
    if stream not in STREAMS:
        raise ValueError(f"unknown seed stream {stream!r}: one of {', '.join(STREAMS)}")
    return derived_seed(seed, STREAMS[stream])
