"""The strategy parameter vector: the layout every policy kernel reads.

A strategy is a float64 vector indexed by the ``P_*`` constants. :data:`PARAMETERS`
documents each parameter (name in spec strings, index, default, allowed values); the
presets in :mod:`ginsim.strategies.presets` are overrides of these defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KIND_DEADWOOD = 0  # draws, discards and knocks by exact deadwood (the ``simple`` family)
KIND_RANDOM = 1  # uniformly random legal choices, knocking whenever legal

P_KIND = 0
P_KNOCK = 1  # knock only when deadwood <= this (and <= the rules' knock limit); 0 = gin only
P_SIZE = 2


@dataclass(frozen=True)
class Parameter:
    """One documented entry of the strategy vector."""

    name: str
    index: int
    default: float
    help: str
    choices: tuple[str, ...] = ()  # names of the integer codes, when categorical
    low: float = 0
    high: float = 1e9
    aliases: tuple[str, ...] = ()


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("kind", P_KIND, KIND_DEADWOOD,
                  "decision family: deadwood (exact-deadwood play) or random",
                  choices=("deadwood", "random")),
        Parameter("knock", P_KNOCK, 10,
                  "knock when the kept deadwood is at most this (0 = gin only); "
                  "never above the rules' knock limit",
                  low=0, high=200, aliases=("t",)),
    )
}


def default_vector() -> np.ndarray:
    """A parameter vector with every default."""
    vec = np.zeros(P_SIZE, dtype=np.float64)
    for p in PARAMETERS.values():
        vec[p.index] = p.default
    return vec
