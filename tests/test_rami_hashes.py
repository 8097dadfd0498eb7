"""Greek Rami stays the same: fixed runs equal the outputs of commit 0384c96 (issue 22).

The digests in ``tests/data/rami_hashes_0384c96.json`` were printed by this file run as
a script against the untouched commit 0384c96, before the Rami kernels were reshaped
(``git worktree add --detach <dir> 0384c96``, copy this file there, then
``PYTHONPATH=<dir> python <dir>/tests/test_rami_hashes.py``). Deal records, the first
deal's per-turn trace, chunked runs, game records and exact lay-downs are compared;
every record value is hashed per column as int64.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

DEAL_CASES = [
    # (seats, rules, seed, deals)
    (["simple", "careful"], "rami", 1, 300),
    (["careful", "naive", "dry_hunter"], "rami_two_jokers", 2, 200),
    (["holder", "patient", "simple", "careful"], "rami_fourteen", 3, 200),
    (["careful", "watchful", "careful", "watchful", "simple"], "rami_no_discard", 4, 150),
    (["naive", "simple", "careful", "patient", "holder", "dry_hunter"], "rami_pure_run", 5, 100),
    (["careful", "simple", "watchful"], "rami_two_per_run", 6, 200),
    (["simple"] * 4, "rami:open_min=40,jokers_per_meld=2,starter_fourteen=true", 7, 200),
]
GAME_CASES = [
    (["careful", "simple", "naive"], "rami", 2, 20),
    (["watchful", "careful"], "rami_two_per_run", 3, 20),
]
LAY_CASES = [
    # (hand, table, opened, rules)
    ("5H 6H 7H 9S 9D 9C KS QS JK AS 2D 3D 4D 8C", ["2S 3S 4S"], False, None),
    ("5H 6H 7H 9S 9D 9C KS QS JK AS 2D 3D 4D 8C", [], True, None),
    ("QD KD AD JK 4C 4D 4H 8S 8S 9S TS", ["5H JK 7H", "7S 7H JK"], True, None),
    ("6H 7S 7D JK JK 3C 4C 5C 6C", ["5H JK 7H 8H"], True, "rami_two_per_run"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", [], False, "rami_no_discard"),
    ("KH KS KD JK 2H 3H 4H 5H 9C 9C", [], False, "rami_pure_run"),
]
STORED_FILE = Path(__file__).parent / "data" / "rami_hashes_0384c96.json"


def digest(array: np.ndarray) -> str:
    """SHA-256 over every field (or the whole array) cast to little-endian int64."""
    h = hashlib.sha256()
    for name in array.dtype.names or ():
        h.update(name.encode())
        h.update(np.ascontiguousarray(array[name], dtype="<i8").tobytes())
    if not array.dtype.names:
        h.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    return h.hexdigest()


def compute(group: str = "all") -> dict[str, str]:
    """Digests of every case of ``group`` ('all', 'deals', 'games', 'lay')."""
    from ginsim.rami import best_lay_down
    from ginsim.rami.play.engine import play_deal_records, play_game_records
    from ginsim.rami.play.runner import run_deals, run_games

    out: dict[str, str] = {}
    if group in ("all", "deals"):
        for seats, rules, seed, deals in DEAL_CASES:
            key = f"deals {','.join(seats)} {rules} {seed} {deals}"
            records, trace = play_deal_records(seats, stop=deals, seed=seed, rules=rules,
                                               trace_rows=400)
            out[key] = digest(records)
            out[key + " trace"] = digest(trace)
            out[key + " chunk 37"] = digest(run_deals(seats, deals, seed=seed, rules=rules,
                                                      chunk=37))
    if group in ("all", "games"):
        for seats, rules, seed, games in GAME_CASES:
            key = f"games {','.join(seats)} {rules} {seed} {games}"
            out[key] = digest(play_game_records(seats, stop=games, seed=seed, rules=rules))
            out[key + " chunk 7"] = digest(run_games(seats, games, seed=seed, rules=rules,
                                                     chunk=7))
    if group in ("all", "lay"):
        for hand, table, opened, rules in LAY_CASES:
            plan = best_lay_down(hand, table, opened=opened, rules=rules)
            out[f"lay {hand} | {' / '.join(table)} {opened} {rules}"] = hashlib.sha256(
                repr(plan).encode()).hexdigest()
    return out


@pytest.mark.parametrize("group", ["deals", "games", "lay"])
def test_rami_outputs_equal_commit_0384c96(group: str) -> None:
    stored = json.loads(STORED_FILE.read_text())
    now = compute(group)
    assert now, group
    for key, value in now.items():
        assert stored[key] == value, f"{key} changed since commit 0384c96"


if __name__ == "__main__":
    print(json.dumps(compute(), indent=1, sort_keys=True))
