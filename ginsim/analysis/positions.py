"""Positions from simulated hands, with the public view and the hidden truth.

``ginsim.positions`` plays hands and returns one row per decision of seat a after
its draw: what the advisor is given (cards, drawn card, pile, the public history in the
notation of :mod:`ginsim.game.history`) and what it is trying to guess (the opponent's
hand and exact deadwood, and how the hand ended). Used to calibrate the advisor.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.card_tables import card_tables
from ..game.cards import format_cards, mask_to_cards
from ..game.history import history_text
from ..game.melds_nb import WORK_SIZE, min_deadwood_nb
from ..game.rules import Rules
from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..game.state import SOURCE_DEAL, SOURCE_PILE
from ..simulator.limits import check_position_hands
from ..simulator.machine.history_replay import HistoryReplay
from ..simulator.machine.records import (
    ACTION_BIG_GIN,
    ACTION_LAST_DISCARD,
    TRACE_ACTION,
    TRACE_DISCARD,
    TRACE_DRAWN,
    TRACE_HAND,
    TRACE_HAND_A,
    TRACE_HAND_B,
    TRACE_SEAT,
    TRACE_SOURCE,
    TRACE_STOCK_LEFT,
    TRACE_TURN,
)
from ..simulator.play.engine import play_records
from ..strategies.presets import Strategy

MAX_TRACE_PER_HAND = 120
ACTIONS = ("discard", "knock", "big_gin", "dead", "last_discard")  # ACTION_* codes


def hand_events(rows: np.ndarray, dealer: int, upcard: int, rules: Rules):
    """Yield ``(row, events so far, pile before the discard)`` for each turn row of a
    hand's trace, the history events (seat, kind, card, flag) being the machine's replay
    of the turns (:class:`~ginsim.simulator.machine.history_replay.HistoryReplay`: the
    upcard passes a draw implies, the pile, what a stock draw declined)."""
    replay = HistoryReplay(rules, dealer, upcard)
    for row in rows:
        seat = int(row[TRACE_SEAT])
        if seat < 0:
            continue
        source, drawn, discard = (int(row[TRACE_SOURCE]), int(row[TRACE_DRAWN]),
                                  int(row[TRACE_DISCARD]))
        if source != SOURCE_DEAL:
            replay.draw_turn(seat, source == SOURCE_PILE, drawn)
        drawn_events, before = list(replay.events), replay.pile()
        if int(row[TRACE_ACTION]) != ACTION_BIG_GIN and discard >= 0:
            replay.discard(seat, discard, f"the discard of seat {seat}")
        yield row, drawn_events, before


def position_rows(strategy: str | Strategy, opponent: str | Strategy, hands: int,
                  seed: int = 0, rules: Rules | str | None = None) -> list[dict]:
    """The rows of :func:`positions` as dicts (see there)."""
    hands = check_position_hands(hands)
    rules = Rules.coerce(rules)
    if rules.mahjong:
        raise ValueError("positions are knocking-gin decisions (the advisor's view); Mahjong "
                         "gin's multi-card takes and table melds are not in that notation: "
                         "give a knocking preset such as modern")
    records, trace = play_records(strategy, opponent, stop=hands, seed=seed, rules=rules,
                                  trace_rows=hands * MAX_TRACE_PER_HAND)
    tab = card_tables(rules)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    out: list[dict] = []
    starts = np.searchsorted(trace[:, TRACE_HAND], np.arange(hands + 1))
    for h in range(hands):
        rec = records[h]
        rows = trace[starts[h]:starts[h + 1]]
        for row, events, pile in hand_events(rows, int(rec["dealer"]), int(rec["upcard"]),
                                              rules):
            if int(row[TRACE_SEAT]) != 0 or int(row[TRACE_SOURCE]) == SOURCE_DEAL:
                continue
            if int(row[TRACE_ACTION]) == ACTION_LAST_DISCARD:
                continue
            drawn = int(row[TRACE_DRAWN])
            discard = int(row[TRACE_DISCARD])
            after = int(row[TRACE_HAND_A])
            before = (after | (1 << discard) if discard >= 0 else after) & ~(1 << drawn)
            opp = int(row[TRACE_HAND_B])
            ev = np.array(events, dtype=np.int64).reshape(-1, 4)
            out.append({
                "hand": h, "turn": int(row[TRACE_TURN]),
                "stock_left": int(row[TRACE_STOCK_LEFT]),
                "cards": format_cards(mask_to_cards(before)),
                "drawn": format_cards([drawn]),
                "drawn_from": "pile" if int(row[TRACE_SOURCE]) == SOURCE_PILE else "stock",
                "pile": format_cards(pile),
                "history": history_text(int(rec["dealer"]), int(rec["upcard"]), ev),
                "discard": format_cards([discard]) if discard >= 0 else "",
                "action": ACTIONS[int(row[TRACE_ACTION])],
                "opponent_hand": format_cards(mask_to_cards(opp)),
                "opponent_deadwood": int(min_deadwood_nb(opp, tab, work)),
                "outcome": OUTCOMES[int(rec["outcome"])],
                "knocker": "" if rec["knocker"] < 0 else "ab"[int(rec["knocker"])],
                "points": int(rec["points_a"]) - int(rec["points_b"]),
            })
    return out


def positions(strategy: str | Strategy, opponent: str | Strategy, hands: int, seed: int = 0,
              rules: Rules | str | None = None) -> pd.DataFrame:
    """One row per decision of seat a (``strategy``) after its draw in ``hands`` hands
    against ``opponent``.

    Public view: ``hand`` (hand index), ``turn``, ``stock_left`` (after the draw),
    ``cards`` (the ten cards held before the draw), ``drawn``, ``drawn_from``, ``pile``
    (bottom first, before the discard), ``history`` (the notation of
    :mod:`ginsim.game.history`, up to the draw), ``discard`` and ``action`` (what seat a
    then did: discard, knock, big_gin, or dead when the stock ran out).
    Hidden truth: ``opponent_hand``, ``opponent_deadwood`` (its exact minimum deadwood
    then), and the hand's ``outcome``, ``knocker`` and ``points`` (seat a's minus seat
    b's) as played.
    """
    return pd.DataFrame(position_rows(strategy, opponent, hands, seed, rules))
