"""Disjoint ranges of deal indices handed out by name, and the one seed space.

Every hand's cards follow from ``(seed, index)``, so two measurements that must not
share deals (a chart's training hands and the deals that evaluate it, a fresh
adversary and the chart it attacks) take their indices from different regions here.
Each region spans :data:`REGION_SPAN` indices; a block is ``size`` indices counted from
the region's start (``block >= 0``) or back from its end (``block < 0``).

A study that needs several independent streams of deals under one seed (its sweep, its
threshold matrix, its knock chart) takes each stream's seed from :func:`stream_seed`:
the study's seed plus the stream's offset, wrapped into the seed space, so every seed
the command line accepts runs and a seed below ``SEEDS - len(STREAMS)`` keeps the
streams it always had.
"""

from __future__ import annotations

SEEDS = 2**64  # seeds are unsigned 64-bit: 0 .. SEEDS - 1
DEFAULT_SEED = 0  # the one default seed of every command, study and API call
#: stream name -> offset from the study's seed (mod :data:`SEEDS`); distinct offsets give
#: distinct seeds, so no two streams of one study share a deal.
STREAMS = {"sweep": 0, "threshold matrix": 1, "knock chart": 2, "answer why": 3,
           "game table": 4, "score games": 5}

REGION_SPAN = 10**9
TRAINING = 10**12  # training regions start here, far above any evaluation region

#: name -> first index. Evaluation regions count duplicate deals, training regions hands.
REGIONS = {
    "evaluation": 0,  # equilibrium iterations: how much each response gains
    "oklahoma evaluation": 10**9,  # scripts/equilibrium_oklahoma.py
    "adversary evaluation": 6 * 10**9,  # scripts/check_equilibrium.py
    "reach": TRAINING - REGION_SPAN,  # which cells the starting chart reaches
    "training": TRAINING,  # equilibrium best responses, one block per iteration
    "oklahoma training": TRAINING + 10**9,
    "adversary training": TRAINING + 5 * 10**9,
    "card play training": TRAINING + 7 * 10**9,  # scripts/make_training_data.py (mc's choices)
    "card play test": TRAINING + 8 * 10**9,  # its held-back hands
}


def deal_block(region: str, block: int, size: int) -> int:
    """The first index of block ``block`` of ``size`` indices in ``region``; ValueError
    when the block would leave the region."""
    if region not in REGIONS:
        raise ValueError(f"unknown deal region {region!r}: one of {', '.join(REGIONS)}")
    base = REGIONS[region]
    start = base + block * size if block >= 0 else base + REGION_SPAN + block * size
    if size < 1 or start < base or start + size > base + REGION_SPAN:
        raise ValueError(f"block {block} of {size:,} deals leaves the {region} region "
                         f"({REGION_SPAN:,} deals)")
    return start


def stream_seed(seed: int, stream: str) -> int:
    """The seed of ``stream`` (a name in :data:`STREAMS`) of a study run with ``seed``:
    ``(seed + offset) % SEEDS``, always a valid seed; ValueError for an unknown stream."""
    if stream not in STREAMS:
        raise ValueError(f"unknown seed stream {stream!r}: one of {', '.join(STREAMS)}")
    return (seed + STREAMS[stream]) % SEEDS
