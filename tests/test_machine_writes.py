"""Only the machine writes a hand state (issue 58): no module outside
``ginsim/simulator/machine/`` assigns to an ``ST_*`` or ``RES_*`` field; drivers, the
Table, the seat views and the belief call the machine's named functions instead."""

from __future__ import annotations

import ast
from pathlib import Path

import ginsim

PACKAGE = Path(ginsim.__file__).parent
MACHINE = PACKAGE / "simulator" / "machine"


def hand_state_writes(path: Path) -> list[int]:
    """Lines of ``path`` that assign to a subscript naming an ST_* or RES_* field."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Subscript) and any(
                        isinstance(n, ast.Name) and n.id.startswith(("ST_", "RES_"))
                        for n in ast.walk(sub.slice)):
                    lines.append(node.lineno)
    return lines


def test_the_finder_sees_a_write(tmp_path):
    (tmp_path / "m.py").write_text("hs[ST_PHASE] = 1\nhs[ST_HAND + s] |= 4\nx = hs[ST_POS]\n"
                                   "hs[RES_BASE:RES_BASE + 2] = 0\n")
    assert hand_state_writes(tmp_path / "m.py") == [1, 2, 4]


def test_only_the_machine_writes_the_hand_state():
    outside = {str(p.relative_to(PACKAGE)): hand_state_writes(p)
               for p in sorted(PACKAGE.rglob("*.py")) if MACHINE not in p.parents}
    outside = {name: lines for name, lines in outside.items() if lines}
    assert not outside, f"call a machine function instead of writing the hand state: {outside}"
    assert sum(len(hand_state_writes(p)) for p in MACHINE.glob("*.py")) > 100  # it looks
