"""Rules as data (docs/rules.md §1-§8): one frozen dataclass, named presets, a packed int array.

Kernels never see the dataclass: :meth:`Rules.packed` flattens it to a small int64
array indexed by the ``R_*`` constants below, and :func:`ginsim.game.card_tables.card_tables`
turns the card values and run shape into lookup tables. A variant is a new field here
and a new index there, never a new hand loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .inputs.checks import check_choice, check_flag, check_int
from .inputs.specs import PresetFields, brief, field_value
from .rulebook.rules_presets import RULES_PRESETS

LAYOFF_MODES = ("optimal", "melds_first", "layoffs_first", "two_orders")
DEAL_MODES = ("upcard", "eleven")
NEXT_DEALER_MODES = ("loser", "winner", "alternate")
SHUTOUT_MODES = ("double", "bonus", "none")
SUITS_TEXT = "SHDC"
#: Fields that are True or False; in a spec string true/false, yes/no, on/off or 1/0.
BOOL_FIELDS = ("undercut_on_tie", "run_wrap", "oklahoma", "aces_must_gin",
               "last_discard_rule", "oklahoma_boxes", "mahjong", "mahjong_discard_to_go_out",
               "mahjong_final_meld")
#: Fields that only one switch reads -> that switch; they keep their default without it.
DEPENDENT_FIELDS = {"aces_must_gin": "oklahoma", "double_suits": "oklahoma",
                    "mahjong_discard_to_go_out": "mahjong", "mahjong_final_meld": "mahjong"}
#: Fields that take one of a few words.
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "layoff": LAYOFF_MODES, "deal": DEAL_MODES, "next_dealer": NEXT_DEALER_MODES,
    "shutout": SHUTOUT_MODES}
OFF_WORDS = ("none", "off")  # big_gin_bonus=none turns big gin off
MAX_RULES_SPEC_CHARS = 1000
STOCK_AT_DEAL = 31  # cards in the stock after either deal (52 - 10 - 10 - upcard or 11th)
#: Most cards a game's stock floor may keep back: whole games need hands that end by a
#: knock or gin, and at a floor of 21 or more (10 or fewer draws of the 31) most hands
#: are dead (modern, simple play: 41% dead at floor 20, 72% at 24, 99% at 30), so a game
#: may not reach its target within the game loop's cap of hands.
MAX_GAME_STOCK_FLOOR = 20

#: Bounds of every integer field (inclusive). They keep a hand's points inside the
#: int16 record columns (card values up to 25 make 250 deadwood at most, bonuses up to
#: 1,000, doubled by Oklahoma: 2,500), the aggregate tables small (their deadwood axes
#: are 10 x the highest card value long) and a game inside its 400-hand safety cap.
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 100),
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "stock_floor": (0, 30),
    "ace_value": (0, 25),
    "court_value": (0, 25),
    "target": (1, 1000),
    "game_bonus": (0, 1000),
    "box_bonus": (0, 1000),
    "shutout_bonus": (0, 1000),
    "team_target": (1, 1000),
    "match_hand_points": (0, 1000),
    "match_bonus": (0, 1000),
    "match_shutout_bonus": (0, 1000),
}

#: The fields the hand kernels read, in the order of the packed rules array; the
#: ``R_*`` codes below are their positions. Each is packed by :func:`pack_field`.
HAND_FIELDS = ("knock_limit", "gin_bonus", "undercut_bonus", "undercut_on_tie",
               "big_gin_bonus", "stock_floor", "layoff", "deal", "oklahoma", "double_suits",
               "aces_must_gin", "last_discard_rule", "mahjong", "mahjong_discard_to_go_out",
               "mahjong_final_meld")
#: The fields the game kernels read (``GR_*`` in :mod:`ginsim.game.scoring.game_scoring_nb`).
GAME_FIELDS = ("target", "game_bonus", "box_bonus", "shutout", "shutout_bonus",
               "oklahoma_boxes", "next_dealer", "team_target", "match_hand_points",
               "match_bonus", "match_shutout_bonus")

R_KNOCK_LIMIT = HAND_FIELDS.index("knock_limit")
R_GIN_BONUS = HAND_FIELDS.index("gin_bonus")
R_UNDERCUT_BONUS = HAND_FIELDS.index("undercut_bonus")
R_UNDERCUT_ON_TIE = HAND_FIELDS.index("undercut_on_tie")
R_BIG_GIN_BONUS = HAND_FIELDS.index("big_gin_bonus")  # -1 when big gin is off
R_STOCK_FLOOR = HAND_FIELDS.index("stock_floor")
R_LAYOFF = HAND_FIELDS.index("layoff")  # index into LAYOFF_MODES
R_DEAL = HAND_FIELDS.index("deal")  # index into DEAL_MODES
R_OKLAHOMA = HAND_FIELDS.index("oklahoma")  # the upcard sets the hand's knock limit
R_DOUBLE_SUITS = HAND_FIELDS.index("double_suits")  # bit mask of suits whose upcard doubles
R_ACES_MUST_GIN = HAND_FIELDS.index("aces_must_gin")  # Oklahoma: ace upcard means gin only
R_LAST_DISCARD = HAND_FIELDS.index("last_discard_rule")  # the 50th-card rule (§5.3)
R_MAHJONG = HAND_FIELDS.index("mahjong")  # Mahjong gin (§8.8): no knock, melds on the table
R_MJ_DISCARD_OUT = HAND_FIELDS.index("mahjong_discard_to_go_out")
R_MJ_FINAL_MELD = HAND_FIELDS.index("mahjong_final_meld")
R_SIZE = len(HAND_FIELDS)
#: Kernel codes of the choice fields: their position in the field's words.
LAYOFF_OPTIMAL, LAYOFF_MELDS_FIRST, LAYOFF_LAYOFFS_FIRST, LAYOFF_TWO_ORDERS = (
    LAYOFF_MODES.index(m) for m in ("optimal", "melds_first", "layoffs_first", "two_orders"))
DEAL_UPCARD, DEAL_ELEVEN = (DEAL_MODES.index(m) for m in ("upcard", "eleven"))
NEXT_LOSER, NEXT_WINNER, NEXT_ALTERNATE = (
    NEXT_DEALER_MODES.index(m) for m in ("loser", "winner", "alternate"))
SHUTOUT_DOUBLE, SHUTOUT_BONUS, SHUTOUT_NONE = (
    SHUTOUT_MODES.index(m) for m in ("double", "bonus", "none"))


def pack_field(name: str, value: Any) -> int:
    """A rules field as the integer the kernels read: flags 0/1, a choice its position
    among its words, an absent bonus -1, suits a bit mask (S = bit 0)."""
    if name in CHOICE_FIELDS:
        return CHOICE_FIELDS[name].index(value)
    if name == "double_suits":
        return sum(1 << SUITS_TEXT.index(s) for s in set(value.upper()))
    if value is None:
        return -1
    return int(value)


@dataclass(frozen=True)
class Rules(PresetFields):
    """A complete rule set: one hand (docs/rules.md §1-§6, §8) and the game around it (§7).

    Integer fields are bounded by :data:`INT_BOUNDS` (card values 0..25, knock limit
    0..100, bonuses 0..1,000, stock floor 0..30, target 1..1,000); a value outside is a
    one-line ValueError stating the bound.

    ================= ========= =============================================================
    field             default   meaning
    ================= ========= =============================================================
    knock_limit       10        knock allowed when the kept 10 cards have deadwood <= this;
                                0 is straight gin (§8.2)
    gin_bonus         25        bonus for gin, on top of the defender's deadwood (§6)
    undercut_bonus    25        bonus to a defender who undercuts (§6)
    undercut_on_tie   True      a tie (D == K) counts as an undercut (§6)
    big_gin_bonus     None      bonus for 11 melded cards without a discard; None = off
    stock_floor       2         the hand is dead when the stock is down to this (§5.3);
                                games take at most 20 (:meth:`game_problem`)
    layoff            optimal   ``optimal`` (exact minimum, §5.2), ``melds_first``,
                                ``layoffs_first``, ``two_orders`` (the better of those two;
                                the Playgridia server, seed 004). ``layoffs_first`` is the
                                literal greedy order: every card that fits the knocker's
                                melds is laid off before the defender melds the rest, even
                                when that breaks one of the defender's own melds. So its
                                ``defender_deadwood`` may exceed
                                ``defender_deadwood_before_layoff`` (7H 7D 7C KS against
                                4H 5H 6H: 7H goes, 24 left instead of 10); it models that
                                naive play on purpose. Every other mode starts from the
                                no-layoff deadwood and never ends above it.
    deal              upcard    ``upcard`` or ``eleven`` (§3)
    ace_value         1         deadwood of an unmelded ace (Tedesco: 15)
    court_value       10        deadwood of J, Q, K
    run_wrap          False     runs may turn the corner, K-A-2 and Q-K-A (Tedesco, §8.5)
    oklahoma          False     the upcard sets the hand's knock limit (§8.1); it replaces
                                ``knock_limit``, which must stay 10 with it
    double_suits      "S"       Oklahoma: an upcard of these suits doubles the hand score
    aces_must_gin     True      Oklahoma: an ace upcard means gin only (else knock at 1)
    last_discard_rule False     at the stock floor the other player may take the final
                                discard only to knock or go gin with it (§5.3)
    target            100       game target (§7; Oklahoma 150, competitive 250)
    next_dealer       loser     ``loser``, ``winner`` or ``alternate`` (§3)
    game_bonus        100       bonus to the game's winner
    box_bonus         25        per hand won, added after the game (classic 20)
    shutout           bonus     ``bonus`` (``shutout_bonus`` more, modern), ``double``
                                (the winner's total doubled, classic) or ``none``
    shutout_bonus     100       the extra for a shutout in ``bonus`` mode
    oklahoma_boxes    False     Oklahoma: an undercut is worth 2 boxes, gin 3 (one extra
                                box for undercut, two for gin), doubled on a double upcard
    team_target       125       four players in two teams: the team total that wins (§8.7)
    match_hand_points 25        multi-match (§8.4): match points for each hand won
    match_bonus       100       multi-match: match points for winning a match
    match_shutout_bonus
                      100       multi-match: more match points when the loser won no hand
    mahjong           False     Mahjong gin (§8.8): no knocking; a pile take may reach down
                                several cards, the lowest laid at once; melds go face up on
                                the table and either player extends them; going out scores
                                ``gin_bonus`` plus the cards left in the loser's hand
    mahjong_discard_to_go_out
                      True      Mahjong: going out needs a final discard (False: melding or
                                laying off every card also goes out)
    mahjong_final_meld
                      False     Mahjong: the loser melds what it can in its hand before its
                                cards are counted (False: every card in hand counts)
    ================= ========= =============================================================
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
    run_wrap: bool = False
    oklahoma: bool = False
    double_suits: str = "S"
    aces_must_gin: bool = True
    last_discard_rule: bool = False
    target: int = 100
    next_dealer: str = "loser"
    game_bonus: int = 100
    box_bonus: int = 25
    shutout: str = "bonus"
    shutout_bonus: int = 100
    oklahoma_boxes: bool = False
    team_target: int = 125
    match_hand_points: int = 25
    match_bonus: int = 100
    match_shutout_bonus: int = 100
    mahjong: bool = False
    mahjong_discard_to_go_out: bool = True
    mahjong_final_meld: bool = False

    def __post_init__(self) -> None:
        self._check_field_values()
        self._check_variants()
        self._check_dependent_fields()

    def _check_field_values(self) -> None:
        """Each field on its own: integers within :data:`INT_BOUNDS`, flags, the words of
        :data:`CHOICE_FIELDS`, suit letters."""
        for name, (low, high) in INT_BOUNDS.items():
            value = getattr(self, name)
            if not (name == "big_gin_bonus" and value is None):
                check_int(value, f"Rules.{name}", low, high)
        for name in BOOL_FIELDS:
            check_flag(getattr(self, name), f"Rules.{name}")
        for name, choices in CHOICE_FIELDS.items():
            check_choice(getattr(self, name), f"Rules.{name}", choices)
        if not isinstance(self.double_suits, str) or len(self.double_suits) > 4 or any(
                s not in SUITS_TEXT for s in self.double_suits.upper()):
            raise ValueError(f"Rules.double_suits must be up to 4 suit letters from {SUITS_TEXT}, "
                             f"e.g. 'S' or 'SH', got {brief(self.double_suits)}")
        if len(set(self.double_suits.upper())) != len(self.double_suits):
            raise ValueError(f"Rules.double_suits names each suit once, e.g. 'S' or 'SH', got "
                             f"{brief(self.double_suits)}")

    def _check_variants(self) -> None:
        """Variants that exclude each other: Oklahoma needs an upcard and sets the knock
        limit itself; Mahjong gin has no knocking."""
        if self.oklahoma and self.deal == "eleven":
            raise ValueError("Rules.oklahoma needs an upcard: use deal='upcard' with it")
        if self.oklahoma and self.knock_limit != 10:
            raise ValueError(_oklahoma_conflict(self.knock_limit))
        if self.mahjong and (self.oklahoma or self.last_discard_rule
                             or self.big_gin_bonus is not None or self.knock_limit != 10):
            raise ValueError("Rules.mahjong has no knocking: use it with oklahoma=False, "
                             "last_discard_rule=False, big_gin_bonus=None and knock_limit "
                             "left at 10")

    def _check_dependent_fields(self) -> None:
        """A field that only a switch reads (:data:`DEPENDENT_FIELDS`) keeps its default
        while the switch is off: otherwise it would be ignored without a word."""
        defaults = Rules.__dataclass_fields__
        for name, switch in DEPENDENT_FIELDS.items():
            value, default = getattr(self, name), defaults[name].default
            if name == "double_suits":
                value, default = set(value.upper()), set(default)
            if not getattr(self, switch) and value != default:
                raise ValueError(f"Rules.{name} applies only with {switch}=true, so "
                                 f"{name}={_spec_value(getattr(self, name))} would be "
                                 f"ignored: set {switch}=true or leave {name} out")

    @classmethod
    def presets(cls) -> dict[str, tuple[str, dict[str, Any]]]:
        """The named presets (:data:`RULES_PRESETS`); ``preset``, ``coerce`` (a Rules object, a
        preset name, a spec such as ``modern:undercut_on_tie=false,undercut_bonus=10`` or
        None for ``modern``), ``with_``, ``to_dict`` and ``name`` come from
        :class:`~ginsim.game.inputs.specs.PresetFields`."""
        return RULES_PRESETS

    @classmethod
    def parse(cls, spec: str) -> Rules:
        return parse_rules(spec)

    def spec(self) -> str:
        """These rules as a spec string :func:`parse_rules` reads back: the preset that
        differs in the fewest fields, then those fields (``classic:knock_limit=8``)."""
        mine = self.to_dict()
        best: list[str] = []
        best_name = ""
        for preset in RULES_PRESETS:
            theirs = Rules.preset(preset).to_dict()
            diff = [f"{k}={_spec_value(v)}" for k, v in mine.items() if theirs[k] != v]
            if not best_name or len(diff) < len(best):
                best, best_name = diff, preset
        return best_name + (":" + ",".join(best) if best else "")

    def game_problem(self) -> str | None:
        """Why whole games cannot be played under these rules (one line), or None.
        Single hands always can; a game needs enough hands that are not dead."""
        if self.stock_floor > MAX_GAME_STOCK_FLOOR:
            draws = STOCK_AT_DEAL - self.stock_floor
            return (f"rules {self.spec()!r} cannot be played as games: a stock floor of "
                    f"{self.stock_floor} leaves {draws} draw{'s' * (draws != 1)} of the "
                    f"{STOCK_AT_DEAL}-card stock, so nearly every hand is dead and a game "
                    f"may never reach its target; games take stock_floor at most "
                    f"{MAX_GAME_STOCK_FLOOR}")
        return None

    def check_games(self) -> Rules:
        """These rules, if whole games can be played under them; else the ValueError of
        :meth:`game_problem`."""
        problem = self.game_problem()
        if problem:
            raise ValueError(problem)
        return self

    @property
    def knocks(self) -> bool:
        """Whether a player may knock: not under straight gin (knock limit 0 without
        Oklahoma) nor Mahjong gin, whose hands end only by going out."""
        return not self.mahjong and (self.knock_limit > 0 or self.oklahoma)

    def rank_values(self) -> np.ndarray:
        """Deadwood value of each rank, ace first (int64[13])."""
        values = [self.ace_value] + list(range(2, 11)) + [self.court_value] * 3
        return np.array(values, dtype=np.int64)

    def packed(self) -> np.ndarray:
        """The rules as the int64 array the kernels read (:data:`HAND_FIELDS`, ``R_*``).
        Mahjong gin's come as a strided view: its array type makes the kernels compile
        Mahjong's hand for it alone (:func:`ginsim.game._jit.is_mahjong_layout`)."""
        fields = np.array([pack_field(n, getattr(self, n)) for n in HAND_FIELDS],
                          dtype=np.int64)
        if not self.mahjong:
            return fields
        wide = np.zeros(2 * len(fields), dtype=np.int64)
        wide[::2] = fields
        return wide[::2]

    def packed_game(self) -> np.ndarray:
        """The game-level fields as the int64 array the game kernels read
        (:data:`GAME_FIELDS`, ``GR_*``)."""
        return np.array([pack_field(n, getattr(self, n)) for n in GAME_FIELDS], dtype=np.int64)


def _oklahoma_conflict(knock_limit: int) -> str:
    """Why Oklahoma and an explicit knock limit are refused: the upcard sets the limit."""
    if knock_limit == 0:
        return ("Rules.oklahoma contradicts straight gin (knock_limit=0): straight gin has "
                "no knocking, Oklahoma's upcard sets a knock limit; choose one")
    return (f"Rules.oklahoma sets each hand's knock limit from the upcard, so "
            f"knock_limit={knock_limit} would be ignored: leave knock_limit at 10 with "
            f"oklahoma, or drop oklahoma")


def _spec_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _field_value(name: str, text: str, spec: str) -> Any:
    """One field's value from its spec text; ValueError says what the field takes."""
    word = text.lower()
    if name in CHOICE_FIELDS:
        if word in CHOICE_FIELDS[name]:
            return word
        raise ValueError(f"bad value {brief(text)} for {name} in rules {brief(spec)}: "
                         f"expected one of {', '.join(CHOICE_FIELDS[name])}")
    if name == "double_suits":
        return text.upper()  # Rules checks the letters
    if name == "big_gin_bonus" and word in OFF_WORDS:
        return None
    try:
        return field_value(name, text, spec, "rules", BOOL_FIELDS, INT_BOUNDS)
    except ValueError as exc:
        if name != "big_gin_bonus":
            raise
        raise ValueError(f"{exc} or none") from None


def parse_rules(spec: str) -> Rules:
    """Rules from ``preset[:field=value,...]``, the strategy spec syntax
    (``modern:undercut_on_tie=false,undercut_bonus=10``).

    Booleans read true/false (yes/no, on/off, 1/0), whole numbers, the mode words
    (``layoff=melds_first``), ``big_gin_bonus=none``. ValueError names the unknown
    preset or field, or the bad value and what the field takes.
    """
    return Rules.from_spec(spec, MAX_RULES_SPEC_CHARS, _field_value, "knock_limit=8",
                           blank_ok=("double_suits",))  # no suit doubles: empty
