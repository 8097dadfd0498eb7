"""Bounds on the counts and seeds every entry point accepts, checked before allocating."""

from __future__ import annotations

import numpy as np

MAX_SEED = 2**64 - 1


def check_seed(seed: int) -> int:
    """A seed is an int in 0 .. 2**64-1."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not (
            0 <= int(seed) <= MAX_SEED):
        raise ValueError(f"seed must be an int in 0..2**64-1, got {seed!r}")
    return int(seed)


def check_hands(hands: int, name: str = "hands") -> int:
    """A count of hands (or games, or a start index) is a non-negative int."""
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or int(hands) < 0:
        raise ValueError(f"{name} must be a non-negative int, got {hands!r}")
    return int(hands)
