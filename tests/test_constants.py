"""Named constants are defined once (issue 40): no module-level UPPER_CASE name is given a
literal value in two gin modules, and no public one is given two different values by
two gin modules, literal or computed (issue 58: one word for each thing). Greek Rami,
its own game, is left out."""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import numpy as np

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


def assigned_constants(source: str) -> list[str]:
    """The public module-level UPPER_CASE names ``source`` assigns, whatever the value."""
    names = []
    for node in ast.parse(source).body:
        targets = (node.targets if isinstance(node, ast.Assign) else [node.target]
                   if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        names += [t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()
                  and not t.id.startswith("_")]
    return names


def same_value(a: object, b: object) -> bool:
    """Whether two constants hold the same value (arrays element by element)."""
    try:
        return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else bool(a == b)
    except (TypeError, ValueError):
        return False


def given_two_values(root: Path, package: str) -> dict[str, list[str]]:
    """Name -> the gin modules under ``root`` (imported as ``package``) that assign it,
    where two of them give it different values."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if "rami" not in path.relative_to(root).parts:
            for name in assigned_constants(path.read_text()):
                where[name].append(path.relative_to(root).with_suffix("").as_posix())
    clashes = {}
    for name, files in where.items():
        if len(files) > 1:
            values = [getattr(importlib.import_module(
                f"{package}.{f.removesuffix('/__init__')}".replace("/", ".")), name)
                for f in files]
            if not all(same_value(values[0], v) for v in values[1:]):
                clashes[name] = [f"{f}.py" for f in files]
    return clashes


def test_the_finder_finds_a_name_given_in_two_modules(tmp_path):
    (tmp_path / "a.py").write_text("LIMIT = 2**10\nlower = 1\nNAME: str = 'x'\n")
    (tmp_path / "b.py").write_text("LIMIT = 1024\nNAME = make()\n")
    (tmp_path / "rami").mkdir()
    (tmp_path / "rami" / "c.py").write_text("LIMIT = 3\n")
    assert defined_twice(tmp_path) == {"LIMIT": ["a.py", "b.py"]}


def test_the_finder_finds_a_name_given_two_values(tmp_path, monkeypatch):
    pkg = tmp_path / "twovalues"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("SIZE = len('abc')\nSAME = (1, 2)\n_OWN = 1\n")
    (pkg / "b.py").write_text("SIZE = 2 + 2\nSAME = tuple([1, 2])\n_OWN = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert given_two_values(pkg, "twovalues") == {"SIZE": ["a.py", "b.py"]}


def test_no_public_name_is_given_two_values_by_two_gin_modules():
    twice = given_two_values(PACKAGE, "ginsim")
    assert not twice, f"one name, one thing: rename one or import the other: {twice}"


def test_no_named_constant_is_defined_in_two_gin_modules():
    twice = defined_twice(PACKAGE)
    assert not twice, f"define each once and import it: {twice}"


def outcome_lists(root: Path) -> list[str]:
    """Where a gin module writes four or more outcome names as one tuple, list, set or
    dict literal (the registry, ``hand_scoring_nb``, left out)."""
    from ginsim.game.scoring.hand_scoring_nb import OUTCOMES

    found = []
    for path in sorted(root.rglob("*.py")):
        if "rami" in path.relative_to(root).parts or path.name == "hand_scoring_nb.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            elts = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
            if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
                names = {e.value for e in elts if isinstance(e, ast.Constant)}
                if len(names & set(OUTCOMES)) >= 4:
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_the_outcome_names_are_written_once():
    from ginsim.game.scoring import hand_scoring_nb as hs
    from ginsim.reports.style import OUTCOME_COLOURS

    codes = [hs.OUT_KNOCK, hs.OUT_GIN, hs.OUT_BIG_GIN, hs.OUT_UNDERCUT, hs.OUT_DEAD]
    assert [hs.OUTCOMES[c] for c in codes] == ["knock", "gin", "big_gin", "undercut", "dead"]
    assert set(OUTCOME_COLOURS) == set(hs.OUTCOMES) == set(hs.OUTCOME_WORDS)
    assert not outcome_lists(PACKAGE), "import OUTCOMES from game.scoring.hand_scoring_nb"
