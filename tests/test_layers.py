"""The layers point one way (cli -> reports -> analysis -> runner -> table -> simulator
-> strategies -> game), folders hold one idea each within their limits, and the core
loads none of the data and plotting stack."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import ginsim

PACKAGE = Path(ginsim.__file__).parent
#: Lowest first. A module may import its own layer or any layer below it.
LAYERS = ("game", "strategies", "simulator", "table", "runner", "analysis", "reports",
          "cli")
#: Folders beside a layer at its level: the web app sits beside the command line (checked
#: apart: neither imports the other, and nothing imports web).
BESIDE = {"web": "cli"}
#: Leaf modules any layer may import; the package root sits above every layer.
LEAVES = {"ginsim._version", "ginsim.number_text"}
#: Greek Rami (ginsim/rami: its game and its play) keeps the same layers inside its own
#: package: each module sits in the layer of its gin counterpart; the package itself and
#: its two folders load only game-level names.
RAMI_LAYERS = {"cards": "game", "rules": "game", "tables": "game", "scoring_nb": "game",
               "scoring": "game", "moves_nb": "game", "candidates_nb": "game", "melds_nb": "game",
               "melds": "game",
               "strategy": "strategies", "policy_nb": "strategies",
               "deal_nb": "simulator", "games_nb": "simulator", "engine": "simulator",
               "records": "simulator", "runner": "runner", "store": "runner",
               "api": "analysis",
               "study": "analysis", "report": "reports", "cli": "cli"}
#: What Rami may use of the rest of ginsim: shared machinery, nothing of gin rummy.
RAMI_MAY_IMPORT = ("ginsim.game._jit", "ginsim.game.rng_nb", "ginsim.game.bits_nb",
                   "ginsim.number_text",
                   "ginsim.game.inputs.specs", "ginsim.game.inputs.checks",
                   "ginsim.game.inputs.files",
                   "ginsim.game.cards", "ginsim.runner.pool", "ginsim.runner.chunkfile",
                   "ginsim.runner.lock", "ginsim.runner.store_files", "ginsim._version",
                   "ginsim.runner.kernels.compiling",
                   "ginsim.analysis.intervals",
                   "ginsim.reports.builder", "ginsim.reports.style", "ginsim.reports._files")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> int | None:
    """Index of a ginsim module's layer; None for a leaf; len(LAYERS) for the root."""
    if module in LEAVES:
        return None
    parts = module.split(".")
    if parts[0] != "ginsim":
        raise ValueError(module)
    if len(parts) == 1:
        return len(LAYERS)
    if parts[1] == "rami":
        if len(parts) <= 3:
            return LAYERS.index("game")
        assert parts[3] in RAMI_LAYERS, f"{module} is in no layer: add it to RAMI_LAYERS"
        return LAYERS.index(RAMI_LAYERS[parts[3]])
    name = "cli" if parts[1] == "__main__" else BESIDE.get(parts[1], parts[1])
    assert name in LAYERS, f"{module} is in no layer: add its folder to LAYERS"
    return LAYERS.index(name)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute ginsim module) of every import in the file, inside functions too."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("ginsim")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("ginsim"):
                target = node.module
            else:
                continue
            for alias in node.names:  # `from . import chunkfile` names a module
                sub = f"{target}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists()
                found.append((node.lineno, sub if is_module else target))
    return found


def test_resolver_sees_upward_imports() -> None:
    """The checker itself: a relative import two levels up resolves to the root."""
    path = PACKAGE / "runner" / "store.py"
    found = {layer(m) for _, m in imported_modules(path)}
    assert LAYERS.index("simulator") in found and LAYERS.index("runner") in found
    assert found <= {None, *(LAYERS.index(n) for n in ("game", "simulator", "runner"))}
    assert layer("ginsim") == len(LAYERS) and layer("ginsim.__main__") == LAYERS.index("cli")
    assert layer("ginsim.game.rules") < layer("ginsim.runner.store") < layer(
        "ginsim.analysis.summary")


def test_nothing_imports_upward() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = layer(module_name(path))
        source = len(LAYERS) if source is None else source
        for line, target in imported_modules(path):
            level = layer(target)
            if level is not None and level > source:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not upward, "imports pointing up a layer:\n" + "\n".join(upward)


def test_web_and_cli_stay_apart() -> None:
    """The web app and the command line share a level but not code: web imports no cli
    module, and no module outside web imports web, except the one command that starts
    it (cli/serve_command.py)."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = module_name(path)
        for line, target in imported_modules(path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
            if own.startswith("ginsim.web") and target.startswith("ginsim.cli"):
                wrong.append(where)
            if (target.startswith("ginsim.web") and not own.startswith("ginsim.web")
                    and own != "ginsim.cli.serve_command"):
                wrong.append(where)
    assert not wrong, "web and cli must stay apart:\n" + "\n".join(wrong)


def test_rami_and_gin_stay_apart() -> None:
    """Rami uses only the shared machinery of the gin side; of gin only the command line
    imports Rami (to add its commands)."""
    leaks = []
    for path in sorted(PACKAGE.rglob("*.py")):
        inside = path.is_relative_to(PACKAGE / "rami")
        for line, target in imported_modules(path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
            if inside and not target.startswith(("ginsim.rami", *RAMI_MAY_IMPORT)):
                leaks.append(where)
            if not inside and target.startswith("ginsim.rami") and path.parent.name != "cli":
                leaks.append(where)
    assert not leaks, "gin and rami must not leak into each other:\n" + "\n".join(leaks)


#: The one module that may start a joblib pool: the chunk executor (gin's and Rami's).
JOBLIB_USERS = {"ginsim.runner.pool"}


def test_only_the_chunk_executor_starts_joblib_pools() -> None:
    """Chunked parallel work runs through ginsim.runner.pool.map_chunks: no other gin
    module imports joblib (inside functions too)."""
    users = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "joblib" or n.startswith("joblib.") for n in names):
                users.add(module_name(path))
    assert users <= JOBLIB_USERS, f"joblib imported outside the chunk executor: {users}"
    assert "ginsim.runner.pool" in users


def test_core_loads_no_data_or_plotting_stack() -> None:
    """import ginsim.game / strategies / simulator (and Rami's game, strategy and deal
    modules): no pandas, pyarrow, matplotlib,
    jinja2, and of scipy only what numba itself loads to check its version."""
    code = (
        "import sys, json, numba\n"
        "base = set(sys.modules)\n"
        "import ginsim.game, ginsim.strategies, ginsim.simulator\n"
        "import ginsim.rami, ginsim.rami.game.melds, ginsim.rami.play.engine\n"
        "import ginsim.rami.play.games_nb\n"
        "print(json.dumps(sorted(set(sys.modules) - base)))\n")
    new = json.loads(subprocess.run([sys.executable, "-c", code], check=True,
                                    capture_output=True, text=True).stdout)
    heavy = [m for m in new if m.split(".")[0] in
             ("pandas", "pyarrow", "scipy", "matplotlib", "jinja2", "joblib")]
    assert not heavy, f"the core loaded {heavy}"
    assert "ginsim.analysis" not in new and "ginsim.reports" not in new


def test_root_names_load_on_first_use() -> None:
    """Every name the package root re-exports works, the analysis ones lazily."""
    code = (
        "import sys, ginsim\n"
        "assert 'pandas' not in sys.modules, 'import ginsim loaded pandas'\n"
        "names = [getattr(ginsim, n) for n in ginsim.__all__]\n"
        "assert all(callable(v) or isinstance(v, str) for v in names)\n"
        "assert set(ginsim.__all__) <= set(dir(ginsim))\n"
        "assert 'pandas' in sys.modules\n"
        "try:\n    ginsim.no_such_name\nexcept AttributeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    assert "no_such_name" in out


def import_graph() -> dict[str, set[str]]:
    """Each ginsim module and the ginsim modules it imports (inside functions too); a
    package's own ``__init__`` re-exporting its submodules is not an edge back."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        own = module_name(path)
        graph[own] = {t for _, t in imported_modules(path)
                      if t != own and not (path.name == "__init__.py" and
                                           t.startswith(own + "."))}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = []
            while True:
                top = stack.pop()
                members.append(top)
                if top == node:
                    break
            if len(members) > 1:
                circles.append(sorted(members))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_circle_finder_finds_a_circle() -> None:
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    circles = import_circles(import_graph())
    assert not circles, "modules importing each other:\n" + "\n".join(
        " <-> ".join(c) for c in circles)


#: The most modules a folder holds (its ``__init__`` counted): past it, split by idea.
MAX_FOLDER_MODULES = 15


def test_no_folder_holds_more_than_its_limit() -> None:
    crowded = {str(d.relative_to(PACKAGE.parent)): n for d in [PACKAGE, *PACKAGE.rglob("*/")]
               if d.name != "__pycache__" and (n := len(list(d.glob("*.py")))) > MAX_FOLDER_MODULES}
    assert not crowded, f"folders over {MAX_FOLDER_MODULES} modules: {crowded}"


def test_no_two_gin_modules_share_a_name() -> None:
    """Outside Greek Rami (a game of its own) a module's name says which one it is."""
    seen: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name not in ("__init__.py", "__main__.py") and not path.is_relative_to(
                PACKAGE / "rami"):
            seen.setdefault(path.stem, []).append(module_name(path))
    twice = {name: mods for name, mods in seen.items() if len(mods) > 1}
    assert not twice, f"module names used twice: {twice}"


def defined_names(path: Path) -> set[str]:
    """The names a module defines itself (functions, classes, assignments)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.If):  # names defined under TYPE_CHECKING or a guard
            names |= {n.name for n in ast.walk(node) if isinstance(
                n, (ast.FunctionDef, ast.ClassDef))}
    return names


def name_imports(path: Path):
    """(line, module, name) of every ``from ginsim-module import name`` in the file."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")
            target = ".".join(base[:len(base) - node.level + 1] +
                              ([node.module] if node.module else []))
        elif (node.module or "").startswith("ginsim"):
            target = node.module
        else:
            continue
        for alias in node.names:
            yield node.lineno, target, alias.name


def test_names_come_from_the_module_that_defines_them() -> None:
    """No re-export chains and no private names across modules: a ginsim module imports
    a name from the module that defines it (a package's ``__init__`` may gather public
    names for users), and never another module's ``_private`` name."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, target, name in name_imports(path):
            file = (PACKAGE.parent / Path(*target.split("."))).with_suffix(".py")
            where = f"{path.relative_to(PACKAGE.parent)}:{line} {name} from {target}"
            if name.startswith("_") and not name.startswith("__"):
                wrong.append(f"{where} (private)")
            if file.exists() and name not in defined_names(file):
                wrong.append(f"{where} (defined elsewhere)")
    assert not wrong, "imports to fix:\n" + "\n".join(wrong)
