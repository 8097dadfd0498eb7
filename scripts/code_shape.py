"""Print the package's shape against its limits: modules over 400 lines, functions over
60 lines, cyclomatic complexity over 15 (radon), and public kernel functions taking more
than 8 positional arguments.

    python scripts/code_shape.py [--list]

Needs radon (``pip install radon``) for the complexity column.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ginsim"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
MAX_COMPLEXITY = 15
MAX_KERNEL_ARGS = 8


def functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def shape() -> dict[str, list[str]]:
    try:
        from radon.complexity import cc_visit
    except ImportError:
        cc_visit = None
    found: dict[str, list[str]] = {"modules": [], "long functions": [], "complex": [],
                                   "kernel arguments": []}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        rel = path.relative_to(PACKAGE.parent).as_posix()
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found["modules"].append(f"{rel}: {lines} lines")
        tree = ast.parse(text)
        for fn in functions(tree):
            length = fn.end_lineno - fn.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found["long functions"].append(f"{rel}:{fn.lineno} {fn.name}: {length} lines")
            args = len(fn.args.posonlyargs) + len(fn.args.args)
            public_kernel = path.name.endswith("_nb.py") and not fn.name.startswith("_")
            if public_kernel and args > MAX_KERNEL_ARGS:
                found["kernel arguments"].append(f"{rel}:{fn.lineno} {fn.name}: {args}")
        if cc_visit is not None:
            for block in cc_visit(text):
                if block.complexity > MAX_COMPLEXITY:
                    found["complex"].append(
                        f"{rel}:{block.lineno} {block.name}: complexity {block.complexity}")
    if cc_visit is None:
        found["complex"] = ["(radon is not installed: pip install radon)"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list every offender")
    args = parser.parse_args()
    found = shape()
    limits = {"modules": f"modules over {MAX_MODULE_LINES} lines",
              "long functions": f"functions over {MAX_FUNCTION_LINES} lines",
              "complex": f"functions over complexity {MAX_COMPLEXITY}",
              "kernel arguments": f"public kernels over {MAX_KERNEL_ARGS} positional arguments"}
    for key, words in limits.items():
        print(f"{words}: {len(found[key])}")
        if args.list:
            for line in found[key]:
                print(f"  {line}")


if __name__ == "__main__":
    main()
