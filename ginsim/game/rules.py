"""Rules as data (RULES §1-§6): one frozen dataclass, named presets, a packed int array.

Kernels never see the dataclass: :meth:`Rules.packed` flattens it to a small int64
array indexed by the ``R_*`` constants below, and :func:`ginsim.game.tables.card_tables`
turns the card values into lookup tables. A variant is a new field here and a new
index there, never a new hand loop.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

LAYOFF_MODES = ("optimal", "melds_first", "layoffs_first", "two_orders")
DEAL_MODES = ("upcard", "eleven")

# Indices into the packed rules array read by the kernels.
R_KNOCK_LIMIT = 0
R_GIN_BONUS = 1
R_UNDERCUT_BONUS = 2
R_UNDERCUT_ON_TIE = 3
R_BIG_GIN_BONUS = 4  # -1 when big gin is off
R_STOCK_FLOOR = 5
R_LAYOFF = 6  # index into LAYOFF_MODES
R_DEAL = 7  # index into DEAL_MODES
R_SIZE = 8


@dataclass(frozen=True)
class Rules:
    """A complete rule set for one hand of two-player gin rummy.

    ============== ======= =================================================================
    field          default meaning
    ============== ======= =================================================================
    knock_limit    10      knock allowed when the kept 10 cards have deadwood <= this (§5.1)
    gin_bonus      25      bonus for gin, on top of the defender's deadwood (§6)
    undercut_bonus 25      bonus to a defender who undercuts (§6)
    undercut_on_tie True   a tie (D == K) counts as an undercut (§6)
    big_gin_bonus  None    bonus for 11 melded cards without a discard; None = off (§5.1)
    stock_floor    2       the hand is dead when the stock is down to this many cards (§5.3)
    layoff         optimal how the defender lays off: ``optimal`` (exact minimum, §5.2),
                           ``melds_first`` (own best melds, then layoffs), ``layoffs_first``
                           (all possible layoffs, then own melds), ``two_orders`` (the
                           better of those two; the Playgridia server, seed 004)
    deal           upcard  ``upcard`` (10 + 10 + a face-up card) or ``eleven`` (§3)
    ace_value      1       deadwood value of an ace (§1)
    court_value    10      deadwood value of J, Q, K (§1)
    ============== ======= =================================================================
    """

    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    big_gin_bonus: int | None = None
    stock_floor: int = 2
    layoff: str = "optimal"
    deal: str = "upcard"
    ace_value: int = 1
    court_value: int = 10

    def __post_init__(self) -> None:
        for name in ("knock_limit", "gin_bonus", "undercut_bonus", "stock_floor",
                     "ace_value", "court_value"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Rules.{name} must be a non-negative int, got {value!r}")
        if self.big_gin_bonus is not None and (
            isinstance(self.big_gin_bonus, bool) or not isinstance(self.big_gin_bonus, int)
            or self.big_gin_bonus < 0
        ):
            raise ValueError(
                f"Rules.big_gin_bonus must be None (off) or a non-negative int, "
                f"got {self.big_gin_bonus!r}"
            )
        if not isinstance(self.undercut_on_tie, bool):
            raise ValueError(f"Rules.undercut_on_tie must be True or False, "
                             f"got {self.undercut_on_tie!r}")
        if self.layoff not in LAYOFF_MODES:
            raise ValueError(f"Rules.layoff must be one of {', '.join(LAYOFF_MODES)}, "
                             f"got {self.layoff!r}")
        if self.deal not in DEAL_MODES:
            raise ValueError(f"Rules.deal must be one of {', '.join(DEAL_MODES)}, "
                             f"got {self.deal!r}")
        if self.stock_floor > 30:
            raise ValueError(f"Rules.stock_floor must be at most 30 (31 cards start in the "
                             f"stock), got {self.stock_floor}")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset (see :data:`PRESETS`); ValueError lists the names if unknown."""
        try:
            overrides = PRESETS[name][1]
        except KeyError:
            raise ValueError(
                f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"
            ) from None
        return cls(**overrides)

    @classmethod
    def coerce(cls, rules: Rules | str | None) -> Rules:
        """Accept a Rules object, a preset name, or None (the default ``modern``)."""
        if rules is None:
            return cls()
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str):
            return cls.preset(rules)
        raise ValueError(f"rules must be a Rules object or a preset name, got {rules!r}")

    def with_(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new object)."""
        known = {f.name for f in fields(self)}
        for key in changes:
            if key not in known:
                raise ValueError(f"Rules has no field {key!r}; fields: {', '.join(sorted(known))}")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of all fields (for manifests and reports)."""
        return asdict(self)

    def rank_values(self) -> np.ndarray:
        """Deadwood value of each rank, ace first (int64[13])."""
        values = [self.ace_value] + list(range(2, 11)) + [self.court_value] * 3
        return np.array(values, dtype=np.int64)

    def packed(self) -> np.ndarray:
        """The rules as the int64 array the kernels read (see the ``R_*`` indices)."""
        out = np.zeros(R_SIZE, dtype=np.int64)
        out[R_KNOCK_LIMIT] = self.knock_limit
        out[R_GIN_BONUS] = self.gin_bonus
        out[R_UNDERCUT_BONUS] = self.undercut_bonus
        out[R_UNDERCUT_ON_TIE] = int(self.undercut_on_tie)
        out[R_BIG_GIN_BONUS] = -1 if self.big_gin_bonus is None else self.big_gin_bonus
        out[R_STOCK_FLOOR] = self.stock_floor
        out[R_LAYOFF] = LAYOFF_MODES.index(self.layoff)
        out[R_DEAL] = DEAL_MODES.index(self.deal)
        return out


#: name -> (one-line description, field overrides)
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "modern": ("knock at 10, gin 25, undercut 25, tie is an undercut (the default)", {}),
    "classic": ("older tables: gin bonus 20, undercut bonus 10",
                {"gin_bonus": 20, "undercut_bonus": 10}),
    "palace": ("gin bonus 25, undercut bonus 20", {"undercut_bonus": 20}),
}
