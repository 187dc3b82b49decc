"""No import circles in python/ginnyo: every import, at module level or inside a
function, relative or absolute, is an edge, and the graph of the package's
modules must have no cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ginnyo

PACKAGE = Path(ginnyo.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[2]   # the checkout: CI tests an installed copy of the package

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
    assert "ginnyo.vocab.illegal" in graph["ginnyo.game.game"]    # inside Game._check_place
    assert "ginnyo.vocab.tiles" in graph["ginnyo.vocab.melds"]    # from .tiles import ...
    assert "ginnyo.crazy.cards" in graph["ginnyo.crazy.game"]


def test_no_module_imports_one_that_imports_it_back() -> None:
    cycle = find_cycle(import_graph())
    assert not cycle, "import circle: " + " -> ".join(cycle)


#: The modules of ginnyo that import the compiled core: the bridge's doors, one a
#: compiled extension (native/), the vocabulary module that reads the core's own rules
#: and codes, and Crazy Rummy's own solver.
CORE_DOORS = {"ginnyo.native", "ginnyo.native.core", "ginnyo.native.parse", "ginnyo.native.equity",
              "ginnyo.native.simulate", "ginnyo.native.endgame", "ginnyo.native.selfplay", "ginnyo.native.infer",
              "ginnyo.vocab.rules", "ginnyo.crazy.solver", "ginnyo.crazy.advisor"}
#: The places the core is reached from, a package outside native/ counting once: at most three.
MOST_CORE_PLACES = 3


def _imports_the_core(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "ginnycore" for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "ginnycore":
            return True
    return False


def core_users() -> set[str]:
    return {module_name(path) for path in PACKAGE.rglob("*.py") if _imports_the_core(path)}


def core_place(module: str) -> str:
    """Where ``module`` reaches the core from: the bridge ``native`` or Crazy Rummy's
    ``crazy`` for any of their modules, else the module itself."""
    unit = unit_of(module)
    return unit if unit in ("native", "crazy") else module


def test_the_compiled_core_is_reached_through_the_bridge_only() -> None:
    users = core_users()
    assert users <= CORE_DOORS, f"{sorted(users - CORE_DOORS)} import ginnycore: go through ginnyo.native"


def test_the_compiled_core_is_reached_from_at_most_three_places() -> None:
    places = sorted({core_place(module) for module in core_users()})
    assert len(places) <= MOST_CORE_PLACES, f"ginnycore is imported from {places}"
    assert core_place("ginnyo.native.parse") == "native" and core_place("ginnyo.vocab.illegal") == "ginnyo.vocab.illegal"


#: how a board or a rack is laid out for the core, written once in native/encoding.py;
#: rules.py, on the floor below the bridge, counts a rack for the compiled rules as it checks each tile
ENCODING = re.compile(r"bytearray\(\[EMPTY_SQUARE\]\)|bytearray\((RACK_KINDS|JOKER \+ 1|53)\)")


def test_boards_and_racks_are_encoded_for_the_core_in_one_place() -> None:
    writers = sorted(module_name(path) for path in PACKAGE.rglob("*.py")
                     if ENCODING.search(path.read_text(encoding="utf-8")))
    assert writers == ["ginnyo.native.encoding", "ginnyo.vocab.rules"], writers


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


# -- faces (docs/ARCHITECTURE.md) ---------------------------------------------------------------------

def faces() -> set[str]:
    """The packages whose ``__init__`` is a face: it gives names of its modules
    (lazily, ``support/lazy.py``; the root ``ginnyo`` at once)."""
    lazy = {module_name(path) for path in PACKAGE.rglob("__init__.py")
            if "lazy_names(" in path.read_text(encoding="utf-8")}
    return lazy | {"ginnyo"}


def _own_names(path: Path) -> set[str]:
    """The names a module defines itself (assigned, or a def or class), at its top level."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
    return names


def face_imports(name: str, source: str, faces: set[str], modules: set[str]) -> list[str]:
    """The names module ``name`` (its code ``source``) imports from a face that the
    face only passes on: not a module of the package, not a name the face defines."""
    package = name if name in faces or any(m.startswith(name + ".") for m in modules) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[:len(anchor) - (node.level - 1)]
            base = ".".join(anchor + ([base] if base else []))
        if base not in faces or base == name:
            continue
        own = _own_names(PACKAGE.parent.joinpath(*base.split("."), "__init__.py"))
        found += [f"{name}:{node.lineno} imports {alias.name} from the face {base}" for alias in node.names
                  if f"{base}.{alias.name}" not in modules and alias.name not in own]
    return found


def test_the_package_imports_modules_never_a_face() -> None:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    found = [line for path in paths
             for line in face_imports(module_name(path), path.read_text(encoding="utf-8"), faces(), modules)]
    assert not found, "\n".join(found)


def test_a_name_a_face_passes_on_is_a_face_import() -> None:
    modules = {module_name(path) for path in PACKAGE.rglob("*.py")}
    source = ("from ..players import make_player\nfrom ..players import kinds\nfrom ..players.players import Player\n"
              "from .. import __version__\nfrom ginnyo import Position\nfrom ginnyo.vocab import rules\n")
    assert face_imports("ginnyo.web.tables", source, faces(), modules) == [
        "ginnyo.web.tables:1 imports make_player from the face ginnyo.players",
        "ginnyo.web.tables:5 imports Position from the face ginnyo"]


# -- the floors (docs/ARCHITECTURE.md) ----------------------------------------------------------------

#: The package's floors, lowest first: a package (or a top-level module) imports
#: only from lower floors and from itself.  The lowest floor and the top one
#: are each one room: their modules may import one another (without circles).
FLOORS: list[tuple[str, set[str]]] = [
    ("ground", {"errors", "support", "ratings"}),
    ("vocabulary", {"vocab"}),
    ("bridge", {"native"}),
    ("position", {"position"}),
    ("game", {"game", "ginnyo"}),
    ("equity", {"equity"}),
    ("search", {"endgame", "simulation", "odds"}),
    ("players", {"players", "levels"}),
    ("applications", {"selfplay", "strength", "analysis", "crazy", "puzzles", "accounts"}),
    ("table", {"web", "engine"}),   # the faces over the analysis: the web table and the line engine
    ("commands", {"commands", "cli", "__main__"}),
]
ONE_ROOM = {"ground", "commands"}
MOST_FLOORS = 11   # about ten: the web table is the layer on top of the applications


def unit_of(module: str) -> str:
    """The package (or top-level module) ``ginnyo.x.y`` belongs to: ``x``; the
    package's own ``__init__``: ``ginnyo``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def floor_of(unit: str) -> int:
    for number, (_, units) in enumerate(FLOORS):
        if unit in units:
            return number
    raise AssertionError(f"{unit} is on no floor: add it to FLOORS and docs/ARCHITECTURE.md")


def unit_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        graph.setdefault(unit_of(module), set()).update(unit_of(t) for t in targets if unit_of(t) != unit_of(module))
    return graph


def longest_chain(graph: dict[str, set[str]]) -> list[str]:
    """The longest path of an acyclic ``graph``, its nodes from top to bottom."""
    memo: dict[str, list[str]] = {}

    def down(node: str) -> list[str]:
        if node not in memo:
            below = [down(target) for target in sorted(graph.get(node, ()))]
            memo[node] = [node] + max(below, key=len, default=[])
        return memo[node]

    return max((down(node) for node in sorted(graph)), key=len)


def test_every_package_and_module_is_on_a_floor() -> None:
    for unit in unit_graph():
        floor_of(unit)


def test_a_package_imports_only_from_the_floors_below_it() -> None:
    wrong = []
    for module, targets in sorted(import_graph().items()):
        here = floor_of(unit_of(module))
        for target in sorted(targets):
            there = floor_of(unit_of(target))
            same_room = here == there and (FLOORS[here][0] in ONE_ROOM or unit_of(module) == unit_of(target))
            if there > here or (there == here and not same_room):
                wrong.append(f"{module} ({FLOORS[here][0]}) imports {target} ({FLOORS[there][0]})")
    assert not wrong, "\n".join(wrong)


def test_no_package_imports_one_that_imports_it_back() -> None:
    cycle = find_cycle(unit_graph())
    assert not cycle, "package circle: " + " -> ".join(cycle)


def floor_graph() -> dict[str, set[str]]:
    """The floors, each with the floors its modules import (its own left out)."""
    graph: dict[str, set[str]] = {name: set() for name, _ in FLOORS}
    for unit, targets in unit_graph().items():
        here = FLOORS[floor_of(unit)][0]
        graph[here].update(FLOORS[floor_of(target)][0] for target in targets)
        graph[here].discard(here)
    return graph


def test_the_longest_chain_of_imports_climbs_at_most_ten_floors() -> None:
    chain = longest_chain(floor_graph())
    assert len(FLOORS) <= MOST_FLOORS
    assert len(chain) <= MOST_FLOORS, " -> ".join(chain)


#: The longest chain of imports between modules, every import counted (at module level, in a function, for
#: the type checker): 22 modules when issue 41 was opened, which asked for 12 at most (docs/ARCHITECTURE.md);
#: 12 since the web's and the engine's chains were cut (e.g. commands.corpus -> selfplay.corpus ->
#: players.players -> ... -> vocab.layout -> errors).
MOST_MODULES_IN_A_CHAIN = 12
#: The same for the engine alone (every module outside web/, commands/, cli and __main__): 18 modules when
#: issue 41 was opened (strength -> ... -> vocab.tiles -> errors), 14 after its first cuts, 12 since the endgame's
#: search, the odds' records, the matches' results and win_chances stand apart (a package's face on top).
MOST_ENGINE_MODULES_IN_A_CHAIN = 12
NOT_ENGINE = ("ginnyo.web", "ginnyo.commands", "ginnyo.cli", "ginnyo.__main__")


def test_the_longest_chain_of_module_imports_does_not_grow() -> None:
    chain = longest_chain(import_graph())
    assert len(chain) <= MOST_MODULES_IN_A_CHAIN, f"{len(chain)} modules: " + " -> ".join(chain)


#: The longest chain of the web table's and the commands' own modules (the engine's left out): 10 at issue 41,
#: which aims at 4 (commands.serve -> web.http.app -> a route module -> web.live.registry); what holds it at 7 is
#: in docs/ARCHITECTURE.md, "The web table's rooms".
MOST_WEB_MODULES_IN_A_CHAIN = 7


def web_graph() -> dict[str, set[str]]:
    """The import graph of ``ginnyo.web`` and ``ginnyo.commands`` alone."""
    own = ("ginnyo.web", "ginnyo.commands")
    return {module: {target for target in targets if target.startswith(own)}
            for module, targets in import_graph().items() if module.startswith(own)}


def test_the_longest_chain_of_web_modules_does_not_grow() -> None:
    chain = longest_chain(web_graph())
    assert "ginnyo.web.http.app" in web_graph()["ginnyo.commands.serve"]
    assert len(chain) <= MOST_WEB_MODULES_IN_A_CHAIN, f"{len(chain)} modules: " + " -> ".join(chain)


def test_no_web_module_imports_the_players_but_their_kinds() -> None:
    """The bots and the win chances are handed to the web by its composition root (commands/serve.py):
    a web module importing ``ginnyo.players.players`` would hang the whole engine under the web's chains."""
    graph = import_graph()
    web = [module for module in graph if module.startswith("ginnyo.web")]
    found = sorted(f"{module} -> {target}" for module in web for target in graph[module]
                   if target.startswith("ginnyo.players") and target != "ginnyo.players.kinds")
    assert not found, found
    assert "ginnyo.players.players" in graph["ginnyo.commands.serve"]


def test_no_command_imports_another_but_the_shared_helpers() -> None:
    """Every command sits at the top of its chain: what two commands share is in a helper module."""
    graph = import_graph()
    commands = {module for module in graph if module.startswith("ginnyo.commands.")}
    imported = {target for module in commands for target in graph[module] if target in commands}
    assert imported <= {f"ginnyo.commands.{name}" for name in SHARED_COMMAND_HELPERS}, sorted(imported)


#: the modules of commands/ that are no command: what the commands share
SHARED_COMMAND_HELPERS = ("arguments", "progress", "table", "workers")


def is_engine(module: str) -> bool:
    return not any(module == top or module.startswith(top + ".") for top in NOT_ENGINE)


def test_the_engines_longest_chain_of_module_imports_does_not_grow() -> None:
    graph = {module: {target for target in targets if is_engine(target)}
             for module, targets in import_graph().items() if is_engine(module)}
    chain = longest_chain(graph)
    assert len(chain) <= MOST_ENGINE_MODULES_IN_A_CHAIN, f"{len(chain)} modules: " + " -> ".join(chain)
    assert is_engine("ginnyo.vocab.tiles") and not is_engine("ginnyo.web.http.app") and not is_engine("ginnyo.cli")


#: The most modules on the longest chain down from each of these engine modules (itself included), so that the
#: web and the commands stand a few modules above the engine and the whole chain reaches 12 (issue 41).
MOST_ENGINE_HEIGHTS = {
    "ginnyo.strength.ladder": 11, "ginnyo.strength.plots": 11, "ginnyo.strength.match": 10,
    "ginnyo.engine.server": 11, "ginnyo.puzzles.finding": 11, "ginnyo.selfplay.corpus": 11,
    "ginnyo.selfplay.games": 11, "ginnyo.selfplay.leave_training": 11,
    "ginnyo.analysis.report": 9, "ginnyo.analysis.records": 9, "ginnyo.endgame.choice": 8,
    "ginnyo.crazy.hints": 8, "ginnyo.game.game": 7, "ginnyo.game.records": 8, "ginnyo.simulation.session": 8,
    "ginnyo.position.preview": 7, "ginnyo.puzzles.solving": 8, "ginnyo.crazy.match": 7,
}


def heights(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's height: the modules on the longest chain of imports down from it, itself included."""
    memo: dict[str, int] = {}

    def height(node: str) -> int:
        if node not in memo:
            memo[node] = 1 + max((height(target) for target in graph.get(node, ())), default=0)
        return memo[node]

    return {node: height(node) for node in graph}


def test_the_heights_finder_counts_the_module_itself() -> None:
    assert heights({"a": {"b", "c"}, "b": {"d"}, "c": set(), "d": set()}) == {"a": 3, "b": 2, "c": 1, "d": 1}


def test_no_engine_module_grows_taller_than_its_mark() -> None:
    graph = {module: {target for target in targets if is_engine(target)}
             for module, targets in import_graph().items() if is_engine(module)}
    found = heights(graph)
    tall = {module: found[module] for module, most in MOST_ENGINE_HEIGHTS.items() if found[module] > most}
    assert not tall, f"taller than MOST_ENGINE_HEIGHTS allows: {tall}"
    faces_ = faces()
    over = {module: height for module, height in found.items()
            if height > MOST_ENGINE_MODULES_IN_A_CHAIN - (module not in faces_)}
    assert not over, f"engine modules above {MOST_ENGINE_MODULES_IN_A_CHAIN - 1} (a face: {MOST_ENGINE_MODULES_IN_A_CHAIN}): {over}"


def test_the_longest_chain_finder_follows_the_deepest_branch() -> None:
    assert longest_chain({"a": {"b", "c"}, "b": {"d"}, "c": set(), "d": set()}) == ["a", "b", "d"]


def test_architecture_md_names_every_package() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    packages = sorted(path.parent.name for path in PACKAGE.glob("*/__init__.py"))
    missing = [name for name in packages if f"`{name}/`" not in text]
    assert not missing, f"docs/ARCHITECTURE.md does not describe {missing}"


def test_pyproject_installs_every_package() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")   # no tomllib before 3.11
    listing = re.search(r"^packages = \[([^\]]*)\]", text, re.MULTILINE)
    assert listing is not None, "pyproject.toml lists no packages"
    listed = set(re.findall(r'"([\w.]+)"', listing.group(1)))
    packages = {module_name(path) for path in PACKAGE.rglob("__init__.py")}
    assert packages <= listed, f"pyproject.toml's packages leave out {sorted(packages - listed)}"
    assert '"data/*.json"' in text and any((PACKAGE / "data").glob("*.json"))


# -- the web's rooms (docs/ARCHITECTURE.md, "The web table's rooms") --------------------------------------

#: Inside the table floor, the web's rooms, lowest first: a room imports only from the rooms below it and
#: from itself.  The modules outside the rooms (the store) are the ground.
WEB_ROOMS = ["ground", "live", "games", "http"]


def web_room(module: str) -> str:
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[2] in WEB_ROOMS else "ground"


def test_the_webs_rooms_import_only_from_the_rooms_below() -> None:
    wrong = []
    for module, targets in sorted(import_graph().items()):
        if not module.startswith("ginnyo.web.") or module.count(".") < 2:
            continue
        here = WEB_ROOMS.index(web_room(module))
        for target in sorted(t for t in targets if t.startswith("ginnyo.web.")):
            if WEB_ROOMS.index(web_room(target)) > here:
                wrong.append(f"{module} ({web_room(module)}) imports {target} ({web_room(target)})")
    assert not wrong, "\n".join(wrong)


#: The most lines a module of the web table may have (issue 41): a longer one holds two things.
MOST_WEB_LINES = 400


def test_no_web_module_is_longer_than_400_lines() -> None:
    lengths = {module_name(path): len(path.read_text(encoding="utf-8").splitlines())
               for path in sorted((PACKAGE / "web").rglob("*.py"))}
    long = {module: lines for module, lines in lengths.items() if lines > MOST_WEB_LINES}
    assert lengths and not long, f"web modules over {MOST_WEB_LINES} lines: {long}"


#: a status code named in code: ``status_code=``, ``status = 4xx``, a 3-digit status in a mapping
STATUS = re.compile(r"status_code|\bstatus\s*=\s*[45]\d\d\b|:\s*[45]\d\d\b")


def test_only_the_http_room_knows_starlette_and_status_codes() -> None:
    wrong = []
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        module = module_name(path)
        if web_room(module) == "http":
            continue
        text = path.read_text(encoding="utf-8")
        if "starlette" in text or STATUS.search(text):
            wrong.append(module)
    for path in sorted(PACKAGE.rglob("*.py")):
        if "web" not in path.relative_to(PACKAGE).parts and STATUS.search(path.read_text(encoding="utf-8")):
            wrong.append(module_name(path))
    assert not wrong, f"{wrong} name starlette or a status code: only ginnyo.web.http may"
