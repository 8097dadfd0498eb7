"""Named constants are defined once (issue 40): no module-level UPPER_CASE name is given a
literal value in two gin modules (Greek Rami, its own game, is left out)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import ginsim

PACKAGE = Path(ginsim.__file__).parent


def is_literal(node: ast.expr) -> bool:
    """A value written out in the source: a literal, or arithmetic on literals (2**20)."""
    if isinstance(node, ast.BinOp):
        return is_literal(node.left) and is_literal(node.right)
    if isinstance(node, ast.UnaryOp):
        return is_literal(node.operand)
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True


def literal_constants(source: str) -> list[str]:
    """The module-level UPPER_CASE names ``source`` assigns a literal."""
    names = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        names += [t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()
                  and is_literal(value)]
    return names


def defined_twice(root: Path) -> dict[str, list[str]]:
    """Name -> the gin modules under ``root`` that assign it a literal, where two or more do."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if "rami" not in path.relative_to(root).parts:
            for name in literal_constants(path.read_text()):
                where[name].append(str(path.relative_to(root)))
    return {name: files for name, files in where.items() if len(files) > 1}


def test_the_finder_finds_a_name_given_in_two_modules(tmp_path):
    (tmp_path / "a.py").write_text("LIMIT = 2**10\nlower = 1\nNAME: str = 'x'\n")
    (tmp_path / "b.py").write_text("LIMIT = 1024\nNAME = make()\n")
    (tmp_path / "rami").mkdir()
    (tmp_path / "rami" / "c.py").write_text("LIMIT = 3\n")
    assert defined_twice(tmp_path) == {"LIMIT": ["a.py", "b.py"]}


def test_no_named_constant_is_defined_in_two_gin_modules():
    twice = defined_twice(PACKAGE)
    assert not twice, f"define each once and import it: {twice}"
