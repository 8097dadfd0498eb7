"""Where the time of a hand goes, for one strategy pair: shuffle, draw decisions, discard
search, memory bookkeeping, the rest of the turn loop, showdown, records.

    python scripts/profile_engine.py [--a simple] [--b simple] [--hands 200000]

Whole-hand figures come from the same hands played to successive depths (shuffle only;
shuffle and play; and showdown; the full hand loop with records): each phase costs the
difference. Inside the turn loop, the decision kernels are timed on positions taken from
a traced run of the same pair (ns per call times calls per hand); what the turn loop
spends beyond them is its bookkeeping (draws, discards, history, the knock test, calls).
Timings are thread CPU time, best of five, one core. The two rows found by difference
(turn loop, records) carry the noise of the others and can come out slightly negative.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ginsim.game._jit import jit
from ginsim.game.card_tables import card_tables
from ginsim.game.melds_nb import best_discard_nb
from ginsim.game.rules import Rules
from ginsim.game.state import (
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PILE_MASK,
    ST_POS,
)
from ginsim.simulator.machine.buffers import HandBuffers, new_board, new_mc_memory
from ginsim.simulator.machine.deal_nb import seat_streams_nb, shuffle_deck_nb
from ginsim.simulator.machine.records import RECORD_DTYPE, TRACE_COLUMNS, TRACE_WIDTH
from ginsim.simulator.machine.showdown_nb import showdown_nb
from ginsim.simulator.play.drive_nb import play_hand_nb
from ginsim.simulator.play.engine import play_records, seat_params
from ginsim.simulator.play.hand_nb import simulate_nb
from ginsim.strategies.params import P_MEMORY
from ginsim.strategies.policy_nb import memory_discard_nb, pile_decision_nb

COL = {name: i for i, name in enumerate(TRACE_COLUMNS)}


@jit
def _hands_to_depth(n, depth, seed, params, rules, tab, trace, board, rng):
    """Play ``n`` hands to ``depth``: 0 shuffle, 1 and play, 2 and showdown."""
    hs = board.hs
    total = 0
    for i in range(n):
        shuffle_deck_nb(hs, rng, seed, i)
        if depth >= 1:
            seat_streams_nb(rng, seed, i)
            play_hand_nb(board, i % 2, params, rules, tab, rng, trace, i)
        if depth >= 2:
            showdown_nb(board, rules, tab)
        total += hs[ST_POS]
    return total


@jit
def _pile_decisions(hands, tops, piles, stock_left, params, rules, tab, board, rng):
    hs = board.hs
    total = 0
    for i in range(hands.shape[0]):
        hs[ST_HAND] = hands[i]
        hs[ST_PILE_MASK] = piles[i]
        hs[ST_POS] = 52 - stock_left[i]
        take, card, dw, knock, big = pile_decision_nb(params, 0, hands[i], tops[i], board,
                                                      rules, tab, rng)
        total += card
    return total


@jit
def _discard_searches(hands, per_card, tab, board):
    total = 0
    for i in range(hands.shape[0]):
        dw, card, _, _ = best_discard_nb(hands[i], 0, 0, tab, board.work, per_card)
        total += dw
    return total


@jit
def _memory_discards(hands, piles, params, tab, board):
    total = 0
    for i in range(hands.shape[0]):
        best_discard_nb(hands[i], 0, 0, tab, board.work, True)
        board.hs[ST_PILE_MASK] = piles[i]
        total += memory_discard_nb(params, 0, hands[i], 0, board, tab)
    return total


def _best_seconds(fn, *args) -> float:
    fn(*args)
    best = float("inf")
    for _ in range(5):
        t = time.thread_time()
        fn(*args)
        best = min(best, time.thread_time() - t)
    return best


def _positions(a: str, b: str, hands: int, rules: Rules) -> dict[str, np.ndarray]:
    """Realistic inputs from a traced run: pile decisions and 11-card hands after draws."""
    _, trace = play_records(a, b, stop=hands, seed=7, rules=rules, trace_rows=hands * 40)
    prev, cur = trace[:-1], trace[1:]
    turn = (cur[:, COL["hand"]] == prev[:, COL["hand"]]) & (cur[:, COL["seat"]] >= 0)
    turn &= (prev[:, COL["discard"]] >= 0) & (cur[:, COL["source"]] >= 0)
    seat = cur[turn, COL["seat"]]
    before = prev[turn]
    held = np.where(seat == 0, before[:, COL["hand_a"]], before[:, COL["hand_b"]])
    drawn = (cur[:, COL["source"]] == 0) & (cur[:, COL["discard"]] >= 0)  # stock draws
    after = cur[drawn]
    kept = np.where(after[:, COL["seat"]] == 0, after[:, COL["hand_a"]], after[:, COL["hand_b"]])
    eleven = kept | (np.int64(1) << after[:, COL["discard"]])
    return {"held": held, "top": before[:, COL["discard"]],
            "pile": before[:, COL["pile"]] & ~(np.int64(1) << before[:, COL["discard"]]),
            "stock_left": before[:, COL["stock_left"]], "eleven": eleven,
            "eleven_pile": after[:, COL["pile"]], "turns": np.array([turn.sum(), len(after)])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="simple")
    parser.add_argument("--b", default="simple")
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--rules", default="modern")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    params, packed, tab = seat_params(args.a, args.b, rules), rules.packed(), card_tables(rules)
    n, seed = args.hands, np.uint64(1)
    board = new_board()
    hs = board.hs
    rng = np.zeros(3, dtype=np.uint64)
    trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    depth = [_best_seconds(_hands_to_depth, n, d, seed, params, packed, tab, trace, board, rng)
             for d in range(3)]
    out = np.zeros(n, dtype=RECORD_DTYPE)
    full = _best_seconds(simulate_nb, seed, 0, n, False, params, packed, tab,
                         HandBuffers(out, trace, board, rng, new_mc_memory()))
    sample = max(n // 10, 2000)
    pos = _positions(args.a, args.b, sample, rules)
    decisions, discards = pos["turns"] / sample  # per hand
    hs[ST_KNOCK_LIMIT] = rules.knock_limit
    pile_s = _best_seconds(_pile_decisions, pos["held"], pos["top"], pos["pile"],
                           pos["stock_left"], params, packed, tab, board, rng) / len(pos["held"])
    memory = params[0, P_MEMORY] >= 1 or params[1, P_MEMORY] >= 1
    search_s = _best_seconds(_discard_searches, pos["eleven"], bool(memory), tab, board) / len(
        pos["eleven"])
    memory_s = 0.0
    if memory:
        memory_s = _best_seconds(_memory_discards, pos["eleven"], pos["eleven_pile"], params,
                                 tab, board) / len(pos["eleven"]) - search_s
    play = depth[1] - depth[0]
    rows = [
        ("shuffle and deal order", depth[0] / n, 1.0),
        ("draw decisions (pile or stock)", pile_s, decisions),
        ("discard search (best discard)", search_s, discards),
        ("memory bookkeeping (memory discard)", memory_s, discards if memory else 0.0),
    ]
    inside = sum(cost * calls for _, cost, calls in rows[1:])
    rows += [
        ("turn loop: draws, discards, history, calls", (play / n - inside), 1.0),
        ("showdown (arrangement, layoffs, score)", (depth[2] - depth[1]) / n, 1.0),
        ("records (writing a row per hand)", (full - depth[2]) / n, 1.0),
    ]
    per_hand = full / n
    print(f"{args.a} vs {args.b}, {args.rules} rules, {n:,} hands on one core: "
          f"{per_hand * 1e6:.2f} us per hand ({1 / per_hand:,.0f} hands/s)")
    print(f"{'part of a hand':44s}{'ns/call':>10s}{'calls/hand':>12s}{'ns/hand':>10s}"
          f"{'share':>8s}")
    for name, cost, calls in rows:
        ns = cost * calls * 1e9
        print(f"{name:44s}{cost * 1e9:10.1f}{calls:12.2f}{ns:10.0f}{ns / (per_hand * 1e9):8.0%}")


if __name__ == "__main__":
    main()
