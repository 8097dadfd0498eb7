"""The typed Python layer over the meld kernels: table melds from text, the best lay-down.

A table meld is written as its cards (``7S 7H JK``; a run low to high with the joker
where it stands: ``5H JK 7H``, ``AS 2S 3S`` or ``QD KD AD``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...game.inputs.checks import check_flag
from ...game.inputs.specs import brief
from .candidates_nb import candidate_moves_nb
from .cards import COPIES, JOKER, N_KINDS, hand_counts, kind_text, parse_hand
from .melds_nb import (
    LAID_SHIFT,
    OUT_BIT,
    S_BEST,
    SCRATCH_SIZE,
    PlanTurn,
    apply_move_nb,
    best_lay_down_nb,
)
from .moves_nb import (
    C_CARDS,
    C_JOKERS,
    C_NC,
    C_TYPE,
    C_WIDTH,
    KIND_RUN,
    KIND_SET,
    MAX_CANDIDATES,
    MAX_TABLE,
    MOVE_NEW_RUN,
    MOVE_NEW_SET,
    MOVE_RUN_BLOCK,
    MOVE_RUN_EXCHANGE,
    MOVE_SET_ADD,
    T_HI,
    T_JOKER,
    T_JOKER2,
    T_KIND,
    T_LO,
    T_RANK,
    T_SIZE,
    T_SUIT,
    T_SUITS,
    T_WIDTH,
    kind_at_nb,
)
from .rules import RamiRules
from .tables import rami_tables

MOVE_NAMES = {MOVE_NEW_SET: "set", MOVE_NEW_RUN: "run", MOVE_RUN_BLOCK: "lay off",
              MOVE_SET_ADD: "lay off", MOVE_RUN_EXCHANGE: "exchange"}


def _run_positions(kinds: list[int], jokers_per_meld: int
                   ) -> tuple[int, int, int, int, int] | None:
    """(suit, lo, hi, joker position, second joker position) of kinds read as a run low
    to high (jokers where they stand, never side by side), else None."""
    naturals = [k for k in kinds if k != JOKER]
    if len(kinds) < 3 or len(naturals) < 2 or len(kinds) - len(naturals) > jokers_per_meld:
        return None
    suit = naturals[0] // 13
    if any(k // 13 != suit for k in naturals):
        return None
    first = kinds.index(naturals[0])
    rank = naturals[0] % 13
    for at in ((1, 14) if rank == 0 else (rank + 1,)):  # the first natural's position
        positions = list(range(at - first, at - first + len(kinds)))
        if _run_fits(kinds, suit, positions):
            spots = [p for k, p in zip(kinds, positions, strict=True) if k == JOKER] + [0, 0]
            if spots[1] and spots[1] == spots[0] + 1:
                return None  # two jokers side by side
            return suit, positions[0], positions[-1], spots[0], spots[1]
    return None


def _run_fits(kinds: list[int], suit: int, positions: list[int]) -> bool:
    """Whether the kinds stand at these run positions (inside 1..14, not both aces)."""
    if positions[0] < 1 or positions[-1] > 14 or (positions[0], positions[-1]) == (1, 14):
        return False
    return all(k == JOKER or kind_at_nb(suit, p) == k
               for k, p in zip(kinds, positions, strict=True))


def table_row(text: str | Sequence[str], rules: RamiRules | None = None) -> np.ndarray:
    """The kernel row (int64[T_WIDTH]) of one table meld given as text; ValueError if
    the cards are no set or run of these rules."""
    rules = rules or RamiRules()
    kinds = parse_hand(text, rules.jokers)
    row = np.zeros(T_WIDTH, dtype=np.int64)
    naturals = [k for k in kinds if k != JOKER]
    jokers = len(kinds) - len(naturals)
    suits = [k // 13 for k in naturals]
    if (3 <= len(kinds) <= 4 and jokers <= 1 and len(naturals) >= 2
            and len({k % 13 for k in naturals}) == 1 and len(set(suits)) == len(suits)):
        row[T_KIND], row[T_RANK] = KIND_SET, naturals[0] % 13
        row[T_SUITS] = sum(1 << s for s in suits)
        row[T_JOKER], row[T_SIZE] = jokers, len(kinds)
        return row
    run = _run_positions(kinds, rules.jokers_per_meld)
    if run is None:
        raise ValueError(f"{brief(text)} is no meld: a set is 3-4 cards of one rank in "
                         f"different suits (one joker at most), a run 3+ cards of one suit in "
                         f"order (low to high, a joker where it stands; two only if the rules "
                         f"allow, never side by side)")
    row[T_KIND] = KIND_RUN
    row[T_SUIT], row[T_LO], row[T_HI], row[T_JOKER], row[T_JOKER2] = run
    row[T_SIZE] = len(kinds)
    return row


def row_kinds(row: np.ndarray) -> list[int]:
    """The cards of a table meld row, low to high for a run (the joker where it stands)."""
    if row[T_KIND] == KIND_SET:
        out = [s * 13 + int(row[T_RANK]) for s in range(4) if row[T_SUITS] >> s & 1]
        return out + [JOKER] * int(row[T_JOKER])
    return [JOKER if p in (row[T_JOKER], row[T_JOKER2]) else kind_at_nb(int(row[T_SUIT]), p)
            for p in range(int(row[T_LO]), int(row[T_HI]) + 1)]


@dataclass(frozen=True)
class LayDown:
    """The best lay-down of a hand: its moves, the value laid, the cards left and
    whether it goes out (every card but the discard laid)."""

    moves: list[tuple[str, str]]
    laid_value: int
    left: list[int]
    goes_out: bool
    table: list[str]

    @property
    def left_text(self) -> str:
        return " ".join(kind_text(k) for k in self.left)


def plan_arrays(counts: np.ndarray, table: np.ndarray, n_table: int, *, opened: bool,
                others_opened: bool, rules: RamiRules, open_min: int | None = None,
                must_kind: int = -1, must_max: int = 0) -> tuple[int, list[int], np.ndarray]:
    """(score, chosen move rows, candidate array) of the exact search on kernel arrays."""
    tabs = rami_tables(rules)
    cand = np.zeros((MAX_CANDIDATES, C_WIDTH), dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    n = candidate_moves_nb(counts, table, n_table, opened, tabs, cand)
    turn = PlanTurn(bool(opened), not others_opened,
                    int(rules.open_min if open_min is None else open_min), int(must_kind),
                    int(must_max))
    plan = best_lay_down_nb(counts, n, cand, turn, rules.packed(), tabs, scratch)
    return int(plan.score), [int(c) for c in scratch[S_BEST:S_BEST + plan.moves]], cand


def best_lay_down(hand: str | Sequence[str], table: Sequence[str] = (), *, opened: bool = True,
                  others_opened: bool | None = None,
                  rules: RamiRules | str | None = None) -> LayDown:
    """The best lay-down of ``hand`` (after the draw) onto ``table`` (melds as text),
    found by exact search: most points laid, going out first. ``opened``: whether the
    player opened before this turn (else the lay-down must open, or be a dry rami when
    ``others_opened`` is False; it defaults to whether the table holds any meld)."""
    rules = RamiRules.coerce(rules)
    kinds = parse_hand(hand, rules.jokers)
    most = max_hand_cards(rules)
    if len(kinds) > most:
        raise ValueError(f"a hand after the draw holds at most {most} cards under these rules "
                         f"({rules.hand_size} dealt and one drawn), got {len(kinds)}")
    counts = hand_counts(kinds)
    if isinstance(table, str):
        raise ValueError("table must be a list of melds, e.g. ['7S 7H 7D', '5H 6H 7H']")
    if len(table) > MAX_TABLE // 2:
        raise ValueError(f"at most {MAX_TABLE // 2} table melds, got {len(table)}")
    rows = np.zeros((MAX_TABLE, T_WIDTH), dtype=np.int64)
    for i, text in enumerate(table):
        rows[i] = table_row(text, rules)
    check_deck_holds(counts + sum((hand_counts(row_kinds(rows[i])) for i in range(len(table))),
                                  np.zeros(N_KINDS, dtype=np.int64)), rules)
    others = bool(len(table)) if others_opened is None else bool(others_opened)
    score, chosen, cand = plan_arrays(counts, rows, len(table), opened=_flag(opened),
                                      others_opened=others, rules=rules)
    moves = []
    n_table = len(table)
    for c in chosen:
        cards = [int(k) for k in cand[c, C_CARDS:C_CARDS + cand[c, C_NC]]]
        cards += [JOKER] * max(int(cand[c, C_JOKERS]), 0)
        moves.append((MOVE_NAMES[int(cand[c, C_TYPE])], " ".join(kind_text(k) for k in cards)))
        n_table = apply_move_nb(counts, rows, n_table, cand, c, 0)
    laid = (score % OUT_BIT) >> LAID_SHIFT
    return LayDown(moves, int(laid), [k for k in range(53) for _ in range(int(counts[k]))],
                   bool(score >= OUT_BIT),
                   [" ".join(kind_text(k) for k in row_kinds(rows[m])) for m in range(n_table)])


def check_deck_holds(counts: np.ndarray, rules: RamiRules) -> None:
    """ValueError naming the first card that the hand and the table together hold more
    often than the decks do (two of each natural card, the rules' jokers): such a
    position cannot arise, and its plan would be nonsense."""
    for kind in range(N_KINDS):
        limit = rules.jokers if kind == JOKER else COPIES
        if counts[kind] > limit:
            raise ValueError(f"{kind_text(kind)} appears {int(counts[kind])} times in the hand "
                             f"and on the table: the decks hold {limit} of it under these "
                             f"rules")


def max_hand_cards(rules: RamiRules) -> int:
    """The most cards a hand can hold when its player lays down: those dealt and the card
    drawn (a starter of fourteen holds as many before its first discard; a joker exchange
    gives a card for the joker, so it adds none)."""
    return rules.hand_size + 1


def _flag(value: Any) -> bool:
    return check_flag(value, "opened")
