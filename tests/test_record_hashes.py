"""The game stays the same: fixed runs equal the records of commit 9882255 (issue 10).

The digests in ``tests/data/record_hashes_9882255.json`` were printed by
``tests/record_hashes.py`` run against that commit (``git worktree add``, then
``PYTHONPATH=<worktree> python tests/record_hashes.py``). Hands, knock-chart rows, game
hand sequences and advisor rollouts are all compared.
"""

import json
from pathlib import Path

import pytest
from record_hashes import compute

STORED = json.loads((Path(__file__).parent / "data" / "record_hashes_9882255.json").read_text())


@pytest.mark.parametrize("group", ["hands", "chart", "games", "advise"])
def test_outputs_equal_the_baseline_commit(group):
    now = compute(group)
    assert now, group
    for key, value in now.items():
        assert STORED[key] == value, f"{key} changed since commit 9882255"
