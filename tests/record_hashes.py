"""Fixed runs whose outputs must never change unless a bug fix says so (issue 10).

``python tests/record_hashes.py`` prints a JSON object of SHA-256 digests, one per case;
``tests/data/record_hashes_9882255.json`` holds the digests printed by commit 9882255,
the engine before the turn-engine rewrite. Every value is hashed per column as int64, so
a change of storage type alone does not count as a change of the game.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

HAND_CASES = [
    # (a, b, rules, hands, seed, duplicate)
    ("simple", "simple", "modern", 30_000, 1, False),
    ("memory2", "memory2", "modern", 20_000, 2, False),
    ("memory1", "gin_hunter", "modern", 20_000, 3, True),
    ("random", "simple", "modern", 10_000, 4, False),
    ("early_knocker", "memory2", "classic", 20_000, 5, False),
    ("chart", "memory2", "modern", 20_000, 6, True),
    ("simple", "memory2", "oklahoma", 20_000, 7, False),
    ("memory2", "simple:t=6", "tedesco", 20_000, 8, False),
    ("simple", "memory1", "eleven", 20_000, 9, False),
    ("memory2", "random", "last_discard", 10_000, 10, False),
    ("simple", "simple", "straight", 5_000, 11, False),
    ("gin_hunter", "simple", "big_gin", 10_000, 12, False),
    ("simple:draw=improve", "memory2:undercut=0.1", "palace", 10_000, 13, False),
]
CHART_CASES = [
    ("simple", "simple", "modern", 4_000, 3),
    ("memory2", "memory2", "oklahoma", 3_000, 4),
]
GAME_CASES = [
    ("memory2", "simple", "modern", "standard", 200, 5),
    ("simple", "memory1", "oklahoma", "hollywood", 100, 6),
]


#: The fields of 9882255's records and knock-chart rows: later columns are not compared.
RECORD_FIELDS = (
    "hand", "dealer", "outcome", "knocker", "knocker_deadwood",
    "defender_deadwood_before_layoff", "defender_deadwood", "points_a", "points_b", "turns",
    "stock_left", "upcard_taken", "upcard", "knock_limit", "multiplier",
)
CHART_FIELDS = ("hand", "turn", "deadwood", "stock_left", "dealer", "net_knock", "net_wait",
                "knocked")


def digest(array: np.ndarray, fields: tuple[str, ...] = ()) -> str:
    """SHA-256 over ``fields`` (or the whole array) cast to little-endian int64."""
    h = hashlib.sha256()
    if fields:
        for name in fields:
            h.update(name.encode())
            h.update(np.ascontiguousarray(array[name], dtype="<i8").tobytes())
    else:
        h.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    return h.hexdigest()


def hand_key(case: tuple) -> str:
    return "hands " + " ".join(str(x) for x in case)


def compute(cases: str = "all") -> dict[str, str]:
    """Digests of every case (``cases``: 'all', 'hands', 'chart', 'games', 'advise')."""
    from ginsim.game.rules import Rules
    from ginsim.simulator.branches.knock_branches import knock_decisions
    from ginsim.simulator.play.engine import play_records
    from ginsim.simulator.play.game_records import play_game_hands

    out: dict[str, str] = {}
    if cases in ("all", "hands"):
        for case in HAND_CASES:
            a, b, rules, hands, seed, duplicate = case
            records, _ = play_records(a, b, stop=hands, seed=seed, rules=Rules.preset(rules),
                                      duplicate=duplicate)
            out[hand_key(case)] = digest(records, RECORD_FIELDS)
    if cases in ("all", "chart"):
        for case in CHART_CASES:
            a, b, rules, hands, seed = case
            rows = knock_decisions(a, b, hands=hands, seed=seed, rules=Rules.preset(rules))
            out["chart " + " ".join(str(x) for x in case)] = digest(rows, CHART_FIELDS)
    if cases in ("all", "games"):
        for case in GAME_CASES:
            a, b, rules, system, games, seed = case
            records, meta = play_game_hands(a, b, games, seed, Rules.preset(rules), system)
            out["games " + " ".join(str(x) for x in case)] = (digest(records, RECORD_FIELDS)
                                                              + digest(meta))
    if cases in ("all", "advise"):
        from ginsim.simulator.branches.advisor import make_position, run_rollouts

        position = make_position(hand="AS 2S 3S 7H 7D 8C 9C TC 4D KD", drawn="QH",
                                 pile="5H 8S 2C 6D", opponent_took="6H",
                                 opponent_passed="8S", stock_left=17)
        options, kept, net, flags, _ = run_rollouts(position, "memory2", "memory2", Rules(),
                                                 300, 1)
        out["advise memory2 300 1"] = (digest(options) + digest(kept) + digest(net)
                                       + digest(flags))
    return out


if __name__ == "__main__":
    print(json.dumps(compute(), indent=1, sort_keys=True))
