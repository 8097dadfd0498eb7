"""No import circles inside the package (issue 22): module-level relative imports form a
graph without cycles, so no module needs a trailing import to break one."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ginsim"


def _module_graph() -> dict[str, set[str]]:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            if node.col_offset:  # an import inside a function or block runs late
                continue
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            submodules = {f"{target}.{a.name}" for a in node.names} & mods.keys()
            deps |= submodules or ({target} & mods.keys())
        graph[name] = deps
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(u: str) -> list[str]:
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if not state.get(v):
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return []

    for module in sorted(graph):
        if not state.get(module):
            found = visit(module)
            if found:
                return found
    return []


def test_the_finder_sees_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_circle():
    cycle = _cycle(_module_graph())
    assert not cycle, " -> ".join(cycle)
