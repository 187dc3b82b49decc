"""The layers of the package: the commands (``ginnyo/commands/``, the entry
point ``cli.py`` and ``__main__.py``) parse arguments and print; the domain
modules below them return data and strings and do neither (issue 18 item 5)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "ginnyo"
COMMAND_LAYER = {"cli.py", "__main__.py"}


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _is_command_layer(path: Path) -> bool:
    name = _relative(path)
    return name in COMMAND_LAYER or name.startswith("commands/")


DOMAIN = sorted((path for path in PACKAGE.rglob("*.py") if not _is_command_layer(path)), key=_relative)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imported_modules(tree: ast.Module) -> list[tuple[int, str]]:
    """Every module ``tree`` imports (relative ones with their dots), with its line."""
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names.append((node.lineno, module))
            if not node.module:   # from . import commands
                names += [(node.lineno, "." * node.level + alias.name) for alias in node.names]
    return names


def _absolute(path: Path, module: str) -> str:
    """``module`` as imported by the file at ``path``, relative imports resolved."""
    level = len(module) - len(module.lstrip("."))
    if not level:
        return module
    package = ["ginnyo", *path.relative_to(PACKAGE).parent.parts]
    base = package[:len(package) - level + 1]
    return ".".join(base + ([module[level:]] if module[level:] else []))


def test_the_domain_modules_are_found() -> None:
    names = {_relative(path) for path in DOMAIN}
    assert {"game/game.py", "selfplay/games.py", "engine/server.py", "crazy/selfplay.py"} <= names
    assert not any(name.startswith("commands/") or name == "cli.py" for name in names)


@pytest.mark.parametrize("path", DOMAIN, ids=_relative)
def test_a_domain_module_never_prints(path: Path) -> None:
    calls = [node.lineno for node in ast.walk(_tree(path))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"]
    assert calls == [], f"{_relative(path)} calls print on lines {calls}"


@pytest.mark.parametrize("path", DOMAIN, ids=_relative)
def test_a_domain_module_never_imports_argparse(path: Path) -> None:
    lines = [line for line, module in _imported_modules(_tree(path)) if module.split(".")[0] == "argparse"]
    assert lines == [], f"{_relative(path)} imports argparse on lines {lines}"


@pytest.mark.parametrize("path", DOMAIN, ids=_relative)
def test_a_domain_module_never_imports_the_commands(path: Path) -> None:
    """The commands call the domain, never the other way round."""
    upward = [(line, module) for line, module in _imported_modules(_tree(path))
              if _absolute(path, module).split(".")[:2] in (["ginnyo", "cli"], ["ginnyo", "commands"])]
    assert upward == [], f"{_relative(path)} imports {upward}"


@pytest.mark.parametrize("path", DOMAIN, ids=_relative)
def test_command_bodies_live_in_the_commands_package(path: Path) -> None:
    bodies = [node.name for node in ast.walk(_tree(path))
              if isinstance(node, ast.FunctionDef) and node.name.startswith("cmd_")]
    assert bodies == [], f"{_relative(path)} defines {bodies}"
