"""The fields of the messages a seat's view reads (docs/agents.md), each checked on its
own: seats, cards, the ``scores``, the ``legal`` list and the hand's terms (its knock
limit and multiplier, as the machine's deal sets them). Every refusal is a
:class:`ViewError`, one line naming the message and what is wrong; the view
(:mod:`ginsim.table.seat_view`) checks the fields against the position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..game.inputs.checks import check_int, is_int
from ..game.inputs.specs import brief
from ..game.rules import INT_BOUNDS, Rules
from ..game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
)
from ..simulator.limits import check_hands
from ..simulator.machine.deal_nb import deal_nb, lay_deck_nb
from .actions import TEXT, card_of
from .table_args import MAX_ACTION_CHARS

#: The cards a hand holds between turns (docs/rules.md §2); the eleven-card deal gives
#: the non-dealer one more.
HAND_CARDS = 10
#: The most a hand's points are multiplied by (an Oklahoma double upcard doubles them).
MAX_MULTIPLIER = 2
#: The longest ``legal`` list of any position: the discard phase's, a discard and a knock
#: for each of the 11 cards held, and big gin (the offer and draw have two moves, the
#: 50th-card turn a pass, a knock for each of 10 cards and big gin).
MAX_LEGAL_MOVES = 2 * (HAND_CARDS + 1) + 1
MOVE_WORDS = {"take": A_TAKE, "pass": A_PASS, "stock": A_STOCK, "pile": A_PILE,
              "big gin": A_BIG_GIN}


class ViewError(ValueError):
    """A message the seat's view refuses: one line naming it and what is wrong."""


def check_seat_field(value: Any, what: str, name: str = "seat") -> int:
    """The seat (or dealer) of a ``what`` message: the int 0 or 1 (not True, not 1.0)."""
    if not is_int(value) or value not in (0, 1):
        raise ViewError(f"{what}: a {name} is 0 or 1, got {brief(value, 40)}")
    return int(value)


def check_scores(value: Any) -> tuple[int, int] | None:
    """A ``hand`` message's ``scores`` (``ginsim agent`` and ``Agent.handle`` alike): null,
    or the game's hand points so far, two whole numbers (seat 0's, seat 1's); a
    ValueError naming ``scores`` otherwise."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            is_int(v) for v in value):
        raise ValueError(f"scores must be null or two whole numbers, the hand points of "
                         f"seats 0 and 1 so far such as [0, 25], got {brief(value, 40)}")
    return int(value[0]), int(value[1])


def hand_numbers(message: dict) -> tuple[int, dict[str, int | None], tuple[int, int] | None]:
    """A ``hand`` message's number, its ``knock_limit`` and ``multiplier`` (None where
    left out: derived, :func:`hand_terms`) and its ``scores``, each in range."""
    try:
        given = {name: None if name not in message else
                 check_int(message[name], name, low, high)
                 for name, low, high in (("knock_limit", *INT_BOUNDS["knock_limit"]),
                                         ("multiplier", 1, MAX_MULTIPLIER))}
        return (check_hands(message.get("hand", 0), "hand"), given,
                check_scores(message.get("scores")))
    except ValueError as exc:
        raise ViewError(f"hand: {exc}") from None


def dealt_cards(rules: Rules, seat: int, dealer: int) -> int:
    """The cards ``seat`` is dealt under ``rules`` when ``dealer`` deals."""
    return HAND_CARDS + (rules.deal == "eleven" and seat != dealer)


def card_field(value: Any, what: str) -> int:
    """A card text of a message as a card int; ViewError naming the message otherwise."""
    if not isinstance(value, str):
        raise ViewError(f"{what}: a card is text such as KD, got {brief(value, 40)}")
    try:
        return card_of(value)
    except ValueError as exc:
        raise ViewError(f"{what}: {exc}") from None


def hand_terms(rules: Rules, packed: np.ndarray, scratch: np.ndarray, dealer: int,
               upcard: int, given: dict[str, int | None]) -> tuple[int, int]:
    """The hand's knock limit and multiplier as the machine's deal (:func:`deal_nb`, on
    the hand state ``scratch``) sets them from the rules and the upcard (Oklahoma: the
    upcard's value, an ace gin only; a doubling suit's upcard doubles); a ``hand`` field
    in ``given`` (None: left out) that says otherwise is refused."""
    deck = [c for c in range(52) if c != upcard]
    if upcard >= 0:  # where the deal turns the upcard: after both hands
        deck.insert(2 * HAND_CARDS, upcard)
    lay_deck_nb(scratch, np.array(deck, dtype=np.int64))
    deal_nb(scratch, dealer, packed, 0)
    derived = {"knock_limit": int(scratch[ST_KNOCK_LIMIT]),
               "multiplier": int(scratch[ST_MULTIPLIER])}
    for name, value in given.items():
        if value is None or value == derived[name]:
            continue
        why = ""
        if name == "knock_limit" and rules.oklahoma:
            why = (f" (the Oklahoma upcard {TEXT[upcard]} sets it"
                   + (": gin only)" if derived[name] == 0 else ")"))
        elif name == "multiplier":
            why = (" (only an Oklahoma upcard doubles a hand)" if not rules.oklahoma else
                   f" (the upcard {TEXT[upcard]} is of "
                   + ("a doubling suit)" if derived[name] > 1 else "no doubling suit)"))
        raise ViewError(f"hand: {name} {value}, but these rules make this hand's "
                        f"{derived[name]}{why}; leave it out to have it derived")
    return derived["knock_limit"], derived["multiplier"]


def legal_move(text: Any, what: str) -> tuple[int, int]:
    """A ``legal`` entry (``take``, ``discard KD``, ``knock 10D``, ``big gin``, in any
    case) as (kind, card)."""
    if not isinstance(text, str) or len(text) > MAX_ACTION_CHARS:
        raise ViewError(f"{what}: legal lists moves as text such as 'discard KD', got "
                        f"{brief(text, 40)}")
    words = text.strip().lower().replace("_", " ").split()
    joined = " ".join(words)
    if joined in MOVE_WORDS:
        return MOVE_WORDS[joined], -1
    if len(words) == 2 and words[0] in ("discard", "knock"):
        return (A_DISCARD if words[0] == "discard" else A_KNOCK,
                card_field(words[1].upper(), f"{what}: legal {text.strip()!r}"))
    raise ViewError(f"{what}: legal names {brief(text, 40)}, which is not a move (take, "
                    f"pass, stock, pile, discard KD, knock KD, big gin)")


def listed_moves(legal: Any, allowed: dict[tuple[int, int], int], what: str,
                 why_not: Callable[[int, int], str]) -> list[tuple[int, int]]:
    """A decision's ``legal`` list as moves (kind, card), in its order: a list of at most
    :data:`MAX_LEGAL_MOVES` entries, each a move of ``allowed`` (else ``why_not`` says
    why the position refuses it), none twice."""
    if not isinstance(legal, list) or not legal:
        raise ViewError(f"{what}: legal must list the moves allowed now, got "
                        f"{brief(legal, 40)}")
    if len(legal) > MAX_LEGAL_MOVES:
        raise ViewError(f"{what}: legal lists {len(legal):,} moves, more than any "
                        f"position has ({MAX_LEGAL_MOVES})")
    listed = [legal_move(text, what) for text in legal]
    for text, move in zip(legal, listed, strict=True):
        if move not in allowed:
            raise ViewError(f"{what}: legal names {text.strip()!r}, which this position "
                            f"does not allow ({why_not(*move)})")
    if len(set(listed)) < len(listed):
        text = next(t for i, t in enumerate(legal) if listed[i] in listed[:i])
        raise ViewError(f"{what}: legal names {text.strip()!r} twice (it lists each "
                        f"move allowed once)")
    return listed
