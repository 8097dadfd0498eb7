"""Speed of the step-by-step Table and the Python agents (issue 23's targets).

    PYTHONPATH=$PWD python scripts/bench_table.py [--hands 2000]

Figures (one core, after a warm-up hand so compiling is not counted):

- table: hands per second of a Table played out by two ginsim Agents fed the protocol's
  messages (``ginsim.table.agents.play_hand``), target at least 2,000;
- agent: the mean and the 99th percentile time of one heuristic Agent's answer to a
  ``decide`` message, target at most 1 ms.

Prints figures only; targets are read, not tested.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ginsim.table.agents import Agent, decide_message, hand_message, play_hand
from ginsim.table.table import Action, Table, view_event

PAIRS = (("simple", "simple"), ("memory2", "memory2"), ("equilibrium", "memory2"))


def table_rate(a: str, b: str, hands: int, rules: str) -> float:
    """Hands per second of Tables played out by agents ``a`` and ``b``."""
    agents = [Agent.from_spec(a, rules), Agent.from_spec(b, rules)]
    play_hand(Table(rules, 1, 0), agents)
    t = time.perf_counter()
    for h in range(hands):
        play_hand(Table(rules, 1, h, h % 2), agents)
    return hands / (time.perf_counter() - t)


def decision_times(spec: str, hands: int, rules: str) -> np.ndarray:
    """Seconds each answer of ``spec`` (seat a, against simple) to a decide message took."""
    agents = [Agent.from_spec(spec, rules), Agent.from_spec("simple", rules)]
    times = []
    for h in range(hands + 1):
        table = Table(rules, 2, h, h % 2)
        for seat, agent in enumerate(agents):
            agent.handle(hand_message(table, seat))
        while table.to_move is not None:
            seat = table.to_move
            message = decide_message(table)
            t = time.perf_counter()
            reply = agents[seat].handle(message)
            if seat == 0 and h > 0:
                times.append(time.perf_counter() - t)
            for event in table.apply(Action.from_message(reply), seat):
                for s, agent in enumerate(agents):
                    agent.handle(view_event(event, s))
    return np.array(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000, help="hands per figure")
    parser.add_argument("--rules", default="modern")
    args = parser.parse_args()
    for a, b in PAIRS:
        rate = table_rate(a, b, args.hands, args.rules)
        print(f"table: {a} vs {b} agents: {rate:,.0f} hands/s (target >= 2,000)")
    for spec in ("simple", "memory2", "equilibrium"):
        t = decision_times(spec, max(args.hands // 10, 50), args.rules) * 1e3
        print(f"agent: {spec} decision {t.mean():.3f} ms mean, {np.percentile(t, 99):.3f} ms "
              f"99th percentile, {t.max():.3f} ms max over {t.size:,} decisions (target <= 1 ms)")


if __name__ == "__main__":
    main()
