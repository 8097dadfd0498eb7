"""Greek Rami rules as data: one frozen dataclass, named presets, a packed int array.

Kernels never see the dataclass: :meth:`RamiRules.packed` flattens it to the int64 array
indexed by the ``R_*`` constants below. A variant is a field here and an index there.
Spec text is the project's ``preset[:field=value,...]`` (``rami:jokers=2``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...game.inputs.checks import check_flag, check_int, is_int
from ...game.inputs.specs import PresetFields, brief, field_value

BOOL_FIELDS = ("starter_fourteen", "open_needs_pure_run", "discard_to_go_out",
               "cap_half_target")
MAX_SPEC_CHARS = 1000
MIN_PLAYERS = 2
MAX_PLAYERS = 6

#: Inclusive bounds of every integer field. They keep a deal's charges inside the int16
#: record columns and a hand (13-14 cards, 6 players) inside the 108-card deck.
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "jokers": (0, 4),
    "hand_size": (7, 14),
    "jokers_per_meld": (1, 2),
    "open_min": (0, 200),
    "dry_charge": (0, 1000),
    "unopened_surcharge": (0, 200),
    "unopened_cap": (0, 1000),
    "target_per_opponent": (1, 1000),
    "joker_value": (0, 50),
    "ace_value": (0, 25),
    "court_value": (0, 25),
}

#: The fields the kernels read, in the order of the packed rules array (every field);
#: the ``R_*`` codes below are their positions, :meth:`RamiRules.packed` packs them.
PACKED_FIELDS = ("jokers", "hand_size", "starter_fourteen", "jokers_per_meld", "open_min",
                 "open_needs_pure_run", "discard_to_go_out", "dry_charge",
                 "unopened_surcharge", "unopened_cap", "cap_half_target",
                 "target_per_opponent", "joker_value", "ace_value", "court_value")
R_JOKERS = PACKED_FIELDS.index("jokers")
R_HAND_SIZE = PACKED_FIELDS.index("hand_size")
R_STARTER_FOURTEEN = PACKED_FIELDS.index("starter_fourteen")
R_JOKERS_PER_MELD = PACKED_FIELDS.index("jokers_per_meld")
R_OPEN_MIN = PACKED_FIELDS.index("open_min")
R_OPEN_PURE_RUN = PACKED_FIELDS.index("open_needs_pure_run")
R_DISCARD_OUT = PACKED_FIELDS.index("discard_to_go_out")
R_DRY_CHARGE = PACKED_FIELDS.index("dry_charge")
R_SURCHARGE = PACKED_FIELDS.index("unopened_surcharge")
R_CAP = PACKED_FIELDS.index("unopened_cap")
R_CAP_HALF_TARGET = PACKED_FIELDS.index("cap_half_target")
R_TARGET_PER_OPP = PACKED_FIELDS.index("target_per_opponent")
R_JOKER_VALUE = PACKED_FIELDS.index("joker_value")
R_ACE_VALUE = PACKED_FIELDS.index("ace_value")
R_COURT_VALUE = PACKED_FIELDS.index("court_value")
R_SIZE = len(PACKED_FIELDS)


@dataclass(frozen=True)
class RamiRules(PresetFields):
    """A complete Greek Rami rule set: one deal and the game to the target.

    ===================== ======= ========================================================
    field                 default meaning
    ===================== ======= ========================================================
    jokers                4       jokers in the 108-card pack (option: 2)
    hand_size             13      cards dealt to each player
    starter_fourteen      False   the starter gets one card more and begins by discarding
    jokers_per_meld       1       jokers in one run (2: never side by side); a set holds 1
    open_min              51      the first lay-down's total at laid values
    open_needs_pure_run   False   the first lay-down must hold a run without a joker
    discard_to_go_out     True    going out needs a last discard (False: it may be melded)
    dry_charge            200     what a dry rami (ξερό ραμί) charges each opponent
    unopened_surcharge    25      added to an unopened loser's hand value
    unopened_cap          100     an unopened loser is charged at most this
    cap_half_target       True    ... and at most half the game target
    target_per_opponent   100     the game ends when a total reaches this x opponents
    joker_value           20      a joker left in hand
    ace_value             11      an ace left in hand (laid low in A-2-3 it counts 1)
    court_value           10      J, Q, K
    ===================== ======= ========================================================
    """

    jokers: int = 4
    hand_size: int = 13
    starter_fourteen: bool = False
    jokers_per_meld: int = 1
    open_min: int = 51
    open_needs_pure_run: bool = False
    discard_to_go_out: bool = True
    dry_charge: int = 200
    unopened_surcharge: int = 25
    unopened_cap: int = 100
    cap_half_target: bool = True
    target_per_opponent: int = 100
    joker_value: int = 20
    ace_value: int = 11
    court_value: int = 10

    def __post_init__(self) -> None:
        for name, (low, high) in INT_BOUNDS.items():
            check_int(getattr(self, name), f"RamiRules.{name}", low, high)
        for name in BOOL_FIELDS:
            check_flag(getattr(self, name), f"RamiRules.{name}")

    KIND = "rami rules"
    EXAMPLE = "rami:jokers=2"

    @classmethod
    def presets(cls) -> dict[str, tuple[str, dict[str, Any]]]:
        """The named presets (:data:`PRESETS`); ``preset``, ``coerce`` (a RamiRules
        object, a preset name, a spec such as ``rami:jokers=2`` or None for ``rami``),
        ``with_``, ``to_dict`` and ``name`` come from
        :class:`~ginsim.game.inputs.specs.PresetFields`."""
        return PRESETS

    @classmethod
    def parse(cls, spec: str) -> RamiRules:
        return parse_rami_rules(spec)

    def spec(self) -> str:
        """These rules as a spec :func:`parse_rami_rules` reads back (``rami:jokers=2``)."""
        base = RamiRules()
        diff = [f"{k}={str(v).lower()}" for k, v in self.to_dict().items()
                if getattr(base, k) != v]
        return "rami" + (":" + ",".join(diff) if diff else "")

    def target(self, players: int) -> int:
        """The game target for ``players`` players (100 per opponent by default)."""
        return self.target_per_opponent * (check_players(players) - 1)

    def unopened_limit(self, players: int) -> int:
        """The most an unopened loser is charged with ``players`` players."""
        cap = self.unopened_cap
        return min(cap, self.target(players) // 2) if self.cap_half_target else cap

    def rank_values(self) -> list[int]:
        """What a card of each rank (ace first) is worth: left in hand, or laid in a set."""
        return [self.ace_value] + list(range(2, 11)) + [self.court_value] * 3

    def hand_values(self) -> np.ndarray:
        """What each kind costs left in hand (int64[53], the joker last)."""
        return np.array(self.rank_values() * 4 + [self.joker_value], dtype=np.int64)

    def deck_size(self) -> int:
        """Cards in the pack: two decks and the jokers."""
        return 104 + self.jokers

    def packed(self) -> np.ndarray:
        """The rules as the int64 array the kernels read (:data:`PACKED_FIELDS`, at the
        ``R_*`` indices; flags 0/1)."""
        return np.array([int(getattr(self, name)) for name in PACKED_FIELDS], dtype=np.int64)


def check_players(players: Any) -> int:
    """A player count 2..6 as an int; a one-line ValueError otherwise."""
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Greek Rami is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"got {brief(players)}")
    return int(players)


def check_deal_fits(rules: RamiRules, players: int) -> None:
    """The hands and the first discard must leave a stock to draw from."""
    dealt = rules.hand_size * players + 1 + int(rules.starter_fourteen)
    if dealt >= rules.deck_size():
        raise ValueError(f"{players} hands of {rules.hand_size} leave no stock in a "
                         f"{rules.deck_size()}-card pack: use fewer cards or players")


def parse_rami_rules(spec: str) -> RamiRules:
    """RamiRules from ``preset[:field=value,...]`` (``rami:jokers=2,open_min=40``);
    ValueError names the unknown preset or field, or the bad value."""
    read = partial(field_value, kind="rami rules", bool_fields=BOOL_FIELDS,
                   int_bounds=INT_BOUNDS)
    return RamiRules.from_spec(spec, MAX_SPEC_CHARS, read, "jokers=2")


#: name -> (one-line description, field overrides)
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "rami": ("two decks and 4 jokers, 13 cards, open at 51, dry rami 200, unopened +25 "
             "capped at 100 and half the target (the default)", {}),
    "rami_two_jokers": ("the default with 2 jokers (106 cards)", {"jokers": 2}),
    "rami_fourteen": ("the starter gets 14 cards and begins by discarding",
                      {"starter_fourteen": True}),
    "rami_pure_run": ("the opening must include a run without a joker",
                      {"open_needs_pure_run": True}),
    "rami_no_discard": ("going out may meld the last card (no final discard)",
                        {"discard_to_go_out": False}),
    "rami_two_per_run": ("a run may hold two jokers, never side by side",
                         {"jokers_per_meld": 2}),
}
