"""No import circle through the Position API (issue 18): no module of ginnyo
imports one that imports it back, directly or through others, counting imports
inside functions and under ``TYPE_CHECKING`` too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "ginnyo"

# The modules of the Position API and what they stand on: none may be in a circle.
POSITION_API = ["ginnyo", "ginnyo.position", "ginnyo.position_fields", "ginnyo.position_line",
                "ginnyo.position_string", "ginnyo.notation", "ginnyo.scoring", "ginnyo.legal",
                "ginnyo.native", "ginnyo.reference", "ginnyo.solver", "ginnyo.render", "ginnyo.play",
                "ginnyo.errors"]


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module name -> the modules of ``package`` it imports anywhere in its text."""
    files = {}
    for path in package.rglob("*.py"):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        files[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph = {}
    for name, (path, is_package) in files.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") \
                    if node.level else node.module or ""
                for alias in node.names:   # `from . import native` imports the module ginnyo.native
                    targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base)
        graph[name] = {target for target in targets if target in files and target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_runs_through_the_position_api() -> None:
    graph = import_graph(PACKAGE)
    assert set(POSITION_API) <= set(graph)
    assert [sorted(group) for group in circles(graph) if group & set(POSITION_API)] == []


def test_the_import_graph_finds_a_circle_closed_inside_a_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def later():\n    from .high import thing\n")
    (package / "high.py").write_text("from . import low\nthing = 1\n")
    (package / "apart.py").write_text("from .low import later\n")
    assert circles(import_graph(package)) == [{"pkg.low", "pkg.high"}]
