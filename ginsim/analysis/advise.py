"""The position advisor: expected points of every option, by rollouts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.cards import format_cards
from ..game.rules import Rules
from ..simulator.advise import make_position, run_rollouts
from ..strategies.presets import Strategy
from .summary import Z95


def advise(hand: str, drawn: str, pile: str = "", opponent_took: str = "",
           opponent_passed: str = "", stock_left: int = 20,
           rules: Rules | str | None = None, opponent: str | Strategy = "simple",
           strategy: str | Strategy = "memory2", rollouts: int = 10_000, seed: int = 0,
           drawn_from: str = "stock") -> pd.DataFrame:
    """Rate every legal option after the draw by playing it out ``rollouts`` times.

    The unseen cards are sampled consistently with everything known (the opponent's
    pickups are in its hand; cards near those it declined are less likely there). Each
    option is played in the same sampled worlds, the advised player continuing with
    ``strategy`` and the opponent with ``opponent``. One row per option: ``discard``,
    ``knock``, ``deadwood`` (kept), ``expected_points`` (advised player's points minus
    the opponent's, per hand) with ``low``/``high`` (95% interval), ``p_undercut``
    (own knock undercut), ``p_opponent_gin``, ``recommended`` (true on the best row).
    """
    rules = Rules.coerce(rules)
    position = make_position(hand, drawn, pile, opponent_took, opponent_passed, stock_left,
                             drawn_from)
    options, kept, net, flags = run_rollouts(position, strategy, opponent, rules, rollouts,
                                             seed)
    mean = net.mean(axis=0)
    half = Z95 * net.std(axis=0, ddof=1) / np.sqrt(net.shape[0])
    frame = pd.DataFrame({
        "discard": [format_cards([int(c)]) for c in options[:, 0]],
        "knock": options[:, 1].astype(bool),
        "deadwood": kept,
        "expected_points": mean,
        "low": mean - half,
        "high": mean + half,
        "p_undercut": (flags == 1).mean(axis=0),
        "p_opponent_gin": (flags == 2).mean(axis=0),
    })
    frame = frame.sort_values(["expected_points", "knock"], ascending=[False, False],
                              kind="stable").reset_index(drop=True)
    frame["recommended"] = frame.index == 0
    return frame


def advice_words(table: pd.DataFrame) -> str:
    """The recommendation in words, with its margin over the runner-up."""
    best = table.iloc[0]
    action = "knock" if best.knock else "discard"
    if best.knock and best.deadwood == 0:
        action = "go gin"
    text = (f"Recommended: {action} {'discarding ' if best.knock else ''}{best.discard} "
            f"(expected {best.expected_points:+.2f} points, 95% CI "
            f"[{best.low:+.2f}, {best.high:+.2f}])")
    if len(table) > 1:
        second = table.iloc[1]
        what = ("knock discarding " if second.knock else "discard ") + second.discard
        text += f"; next best: {what} ({second.expected_points:+.2f})"
    return text + "."
