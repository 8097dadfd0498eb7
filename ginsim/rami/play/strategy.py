"""Greek Rami strategies as data: a parameter vector read by the policy kernels, named
presets and the project's spec language ``preset[:key=value,...]`` (``careful:open_at=60``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...game.inputs.specs import SpecLanguage, brief, spec_fields, split_spec

MAX_SPEC_CHARS = 500

#: name -> (index, low, high, default, meaning). Every value is a whole number.
PARAMETERS: dict[str, tuple[int, int, int, int, str]] = {
    "open_at": (0, 0, 300, 0, "open only with a first lay-down worth at least this "
                              "(the rules' minimum if lower)"),
    "wait_turns": (1, 0, 200, 0, "before this own turn (0 = the first), open only to go out"),
    "wait_stock": (2, 0, 108, 0, "... and only while the stock holds more than this"),
    "wait_closed": (3, 0, 1, 1, "1: the wait holds only while no opponent has opened (a dry "
                                "rami is still possible); 0: whatever the others do"),
    "hold_back": (4, 0, 1, 0, "1: once opened, lay melds and lay-offs only to go out"),
    "discard": (5, 0, 1, 0, "0: the highest card not in a meld; 1: also keep pairs and "
                            "near-runs and never give a card that fits a table meld"),
    "keep_jokers": (6, 0, 1, 1, "1: never discard a joker"),
    "take": (7, 0, 1, 1, "1: take the top discard when it is melded at once (and the "
                         "strategy would lay that turn's lay-down)"),
    "memory": (8, 0, 1, 0, "1: prefer discarding a rank the next player has thrown this "
                           "deal (it does not collect it)"),
}
P_OPEN_AT, P_WAIT_TURNS, P_WAIT_STOCK, P_WAIT_CLOSED, P_HOLD_BACK, P_DISCARD, \
    P_KEEP_JOKERS, P_TAKE, P_MEMORY = range(9)
P_SIZE = len(PARAMETERS)

#: name -> (one-line description, overrides as spec text)
PRESETS: dict[str, tuple[str, str]] = {
    "naive": ("never takes a discard, throws its highest card (jokers too), opens at the "
              "first chance", "take=0,keep_jokers=0"),
    "simple": ("takes a discard it can meld at once, throws its highest card outside "
               "melds, keeps jokers, opens at the first chance", ""),
    "careful": ("simple plus keeps pairs and near-runs and never throws a card that fits "
                "a table meld", "discard=1"),
    "patient": ("careful that opens only with 70 or more", "discard=1,open_at=70"),
    "dry_hunter": ("careful that holds everything for a dry rami for its first 8 turns "
                   "while nobody has opened", "discard=1,wait_turns=8"),
    "holder": ("careful that, once opened, lays down only to go out", "discard=1,hold_back=1"),
    "watchful": ("careful that also remembers what the next player throws and feeds it "
                 "those ranks", "discard=1,memory=1"),
}


@dataclass(frozen=True)
class RamiStrategy:
    """A parsed Rami strategy: its spec text, preset and parameter values."""

    spec: str
    preset: str
    overrides: dict[str, int] = field(default_factory=dict)

    def parameters(self) -> dict[str, int]:
        """Every parameter's value, preset and overrides applied."""
        values = {name: p[3] for name, p in PARAMETERS.items()}
        values.update(_items(PRESETS[self.preset][1], self.preset))
        values.update(self.overrides)
        return values

    def vector(self) -> np.ndarray:
        """The int64 parameter vector the policy kernels read (``P_*`` indices)."""
        out = np.zeros(P_SIZE, dtype=np.int64)
        for name, value in self.parameters().items():
            out[PARAMETERS[name][0]] = value
        return out


#: The rami strategy spec language, read by the shared item parser.
LANGUAGE = SpecLanguage("rami strategy", "rami strategy parameter", "key=value, e.g. open_at=60",
                        {name: name for name in PARAMETERS})


def _items(text: str, spec: str) -> dict[str, int]:
    """The parameter values of a spec's items (``text``): whole numbers in bounds."""
    values: dict[str, int] = {}
    for key, value in spec_fields(LANGUAGE, text, spec).items():
        _, low, high, _, _ = PARAMETERS[key]
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or not low <= number <= high:
            raise ValueError(f"bad value {brief(value)} for {key} in rami strategy "
                             f"{brief(spec)}: expected a whole number in {low}..{high}")
        values[key] = number
    return values


def parse_rami_strategy(spec: Any) -> RamiStrategy:
    """A RamiStrategy from ``preset[:key=value,...]`` or a RamiStrategy; ValueError names
    the unknown preset or parameter, or the bad value and its bounds."""
    if isinstance(spec, RamiStrategy):
        return spec
    name, items, text = split_spec(spec, "rami strategy", "careful:open_at=60",
                                   MAX_SPEC_CHARS)
    if name not in PRESETS:
        raise ValueError(f"unknown rami strategy {brief(name)}: choose one of "
                         f"{', '.join(PRESETS)} (with :key=value to change parameters)")
    return RamiStrategy(text, name, _items(items, text))
