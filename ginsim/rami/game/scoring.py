"""The typed Python layer over the scoring kernels: one deal's charges from card text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...game.inputs.checks import check_flag, is_int
from ...game.inputs.specs import brief
from .cards import N_KINDS, hand_counts, parse_hand
from .rules import RamiRules, check_players
from .scoring_nb import blocked_winner_nb, deal_charges_nb


def _hands_counts(hands: Any, rules: RamiRules) -> np.ndarray:
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ValueError(f"hands must be a list with one hand (card text) per player, got "
                         f"{brief(hands)}")
    check_players(len(hands))
    rows = [hand_counts(parse_hand(h, rules.jokers)) for h in hands]
    return np.array(rows, dtype=np.int64).reshape(len(hands), N_KINDS)


def _flags(opened: Any, players: int) -> np.ndarray:
    if isinstance(opened, (str, bytes)) or not isinstance(opened, Sequence) or len(
            opened) != players or not all(isinstance(o, (bool, np.bool_)) for o in opened):
        raise ValueError(f"opened must be a list of {players} True/False values, one per "
                         f"player, got {brief(opened)}")
    return np.array([int(o) for o in opened], dtype=np.int64)


def deal_charges(hands: Sequence[str], opened: Sequence[bool], winner: int | None,
                 dry: bool = False, players: int | None = None,
                 rules: RamiRules | str | None = None) -> list[int]:
    """Each player's charge for one deal (the winner 0).

    ``hands``: the cards left in each player's hand as text (``AS JK 5H``); ``opened``:
    whether each had made a first lay-down; ``winner``: who went out, or None for a
    blocked deal (the lowest hand value wins; a tie goes to the first listed);
    ``dry``: the winner made a dry rami (no opponent may have opened); ``players``: the
    player count, if given it must match ``hands``.
    """
    rules = RamiRules.coerce(rules)
    counts = _hands_counts(hands, rules)
    n = len(hands)
    if players is not None and check_players(players) != n:
        raise ValueError(f"players is {players} but {n} hands were given: give one hand "
                         f"per player")
    flags = _flags(opened, n)
    values = rules.hand_values()
    if winner is None:
        if dry:
            raise ValueError("a dry rami has a winner: give winner=<index of who went out>")
        winner = int(blocked_winner_nb(counts, n, 0, values))
    elif not is_int(winner) or not 0 <= winner < n:
        raise ValueError(f"winner must be a player index 0..{n - 1} or None (blocked deal), "
                         f"got {brief(winner)}")
    check_flag(dry, "dry")
    if dry and any(flags[p] for p in range(n) if p != winner):
        raise ValueError("a dry rami means no opponent had opened: opened must be False "
                         "for every player but the winner")
    out = np.zeros(n, dtype=np.int64)
    deal_charges_nb(counts, flags, n, int(winner), bool(dry), rules.packed(), values, out)
    return [int(c) for c in out]
