"""The :class:`~ginsim.table.table.Table`'s arguments checked by the validators the CLI
uses (:mod:`ginsim.game.inputs.checks`, :mod:`ginsim.simulator.limits`): each refusal is
one ValueError line naming the argument, before any of it reaches a kernel (where a
negative seed is an OverflowError and a list a numba typing error page)."""

from __future__ import annotations

from ..game.inputs.checks import check_int, is_int
from ..game.inputs.specs import brief
from ..game.rng_nb import check_seed
from ..game.rules import Rules
from ..simulator.limits import check_hands
from .actions import KINDS, Action, IllegalAction

#: The longest text ``apply`` parses as an action (``knock 10D`` is nine characters).
MAX_ACTION_CHARS = 40


def check_table_args(rules: object, seed: object, hand: object, dealer: object
                     ) -> tuple[int | None, int, int]:
    """(seed, hand, dealer) of ``Table(...)`` checked by the CLI's validators: rules a
    Rules, preset or spec; seed None or 0..2**64-1; hand 0..2**62; dealer 0 or 1 (bools,
    floats and text refused). One-line ValueError naming the argument."""
    check_rules_arg(rules)
    return (None if seed is None else check_seed(seed), check_hands(hand, "hand"),
            check_int(dealer, "dealer", 0, 1))


def check_rules_arg(rules: object) -> None:
    """Rules given as a Rules, a preset or a spec (None: the default); anything else is
    ``Rules.coerce``'s one-line refusal, before a cache keyed by the rules sees it (a
    list there is an "unhashable type" TypeError naming nothing)."""
    if rules is not None and not isinstance(rules, (Rules, str)):
        Rules.coerce(rules)


def check_seat(seat: object, name: str = "seat") -> int:
    """A seat argument: 0 or 1 (not True, not 1.0); one-line ValueError otherwise."""
    return check_int(seat, name, 0, 1)


def check_action(action: object) -> Action:
    """An ``apply`` argument as an Action: an Action of a known kind whose card is -1..51,
    or its text; IllegalAction (a ValueError) naming it otherwise, before the Table looks
    at it."""
    if isinstance(action, str):
        if len(action) > MAX_ACTION_CHARS:  # no action is this long; its echo would be
            raise IllegalAction(f"action {brief(action, 40)} is {len(action):,} characters, "
                                f"no action text is over {MAX_ACTION_CHARS}")
        return Action.parse(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"action must be an Action or its text such as 'discard KD', "
                            f"got {brief(action, 40)}")
    if action.kind not in KINDS:
        raise IllegalAction(f"action kind must be one of {', '.join(KINDS)}, got "
                            f"{brief(action.kind, 40)}")
    if not is_int(action.card) or not -1 <= action.card <= 51:
        raise IllegalAction(f"action card must be a card 0..51 (or -1 for none), got "
                            f"{brief(action.card, 40)}")
    return action
