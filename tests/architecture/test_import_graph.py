"""No import circles in python/ginnyo: every import, at module level or inside a
function, relative or absolute, is an edge, and the graph of the package's
modules must have no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ginnyo

PACKAGE = Path(ginnyo.__file__).resolve().parent

def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``path`` imports anywhere in its code (``TYPE_CHECKING``
    blocks included: they are imports a reader follows too)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # ``from .m import x``: x is a module of package m, or a name in module m
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]   # a name inside a module: the module
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imported_modules(path, modules) for path in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (its modules in import order, the first repeated at
    the end); [] when there is none."""
    state: dict[str, int] = {}     # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return []


def test_the_cycle_finder_names_a_cycle_and_passes_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_function_level_and_relative_imports_are_edges() -> None:
    graph = import_graph()
    assert "ginnyo.illegal" in graph["ginnyo.game.game"]     # inside Game._check_place
    assert "ginnyo.tiles" in graph["ginnyo.melds"]           # from .tiles import ...
    assert "ginnyo.crazy.cards" in graph["ginnyo.crazy.game"]


def test_no_module_imports_one_that_imports_it_back() -> None:
    cycle = find_cycle(import_graph())
    assert not cycle, "import circle: " + " -> ".join(cycle)


@pytest.mark.parametrize("module", ["equity.rank", "equity.leaves", "players.players", "simulation.rollouts"])
def test_the_equity_leaves_players_simulation_circle_is_gone(module: str) -> None:
    graph = import_graph()
    name = f"ginnyo.{module}"
    back = sorted(target for target in graph[name] if _reaches(graph, target, name))
    assert not back, f"{back} import {name} back"


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return False
