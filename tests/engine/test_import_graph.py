"""The engine's modules import one another one way only: cards, seats, phases, config and moves at
the bottom, the state's data and JSON form above them, the seat view, then ``Game``, then the
record and scenario modules. Checked on the source (``ast``), so an import hidden inside a
function, or behind ``if TYPE_CHECKING``, counts as well."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import phase10_env.engine

ENGINE = Path(phase10_env.engine.__file__).parent
PACKAGE = "phase10_env.engine"


def _engine_module(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The engine modules an import statement in an engine module names."""
    if isinstance(node, ast.Import):
        dotted = [alias.name for alias in node.names]
    elif node.level == 1 or node.module == PACKAGE:  # from .x import ..., from . import x
        return [node.module] if node.module and node.level else [alias.name for alias in node.names]
    elif node.level:  # from .. import: outside the engine
        return []
    else:
        dotted = [node.module or ""]
    prefix = PACKAGE + "."
    return [n[len(prefix):].split(".")[0] for n in dotted if n.startswith(prefix)]


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """The engine modules ``path`` imports at module level, and where it imports one elsewhere
    (in a function or class)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    for node in tree.body:  # module level, including the bodies of if/try at module level
        for sub in ast.walk(node):
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                break
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                top.update(_engine_module(sub))
    nested = []
    for scope in ast.walk(tree):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for sub in ast.walk(scope):
                if isinstance(sub, (ast.Import, ast.ImportFrom)) and _engine_module(sub):
                    nested.append(f"{path.name}:{sub.lineno} (in {scope.name})")
    return top, nested


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p)[0] for p in sorted(ENGINE.glob("*.py"))}


def test_the_checker_sees_relative_absolute_and_nested_imports(tmp_path: Path) -> None:
    source = ("from .cards import WILD\nfrom . import config\nimport phase10_env.engine.seats\n"
              "from phase10_env.engine import moves\nfrom phase10_env.engine.phases import PHASES\nimport numpy\n"
              "if TYPE_CHECKING:\n    from .view import SeatView\n"
              "def f():\n    from .game import Game\n")
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    top, nested = _imports(path)
    assert top == {"cards", "config", "seats", "moves", "phases", "view"}
    assert nested == ["probe.py:10 (in f)"]


def test_no_engine_import_inside_a_function_or_class() -> None:
    nested = [where for p in sorted(ENGINE.glob("*.py")) for where in _imports(p)[1]]
    assert not nested, f"engine modules imported inside functions or classes (a hidden cycle?): {nested}"


def test_the_engine_import_graph_has_no_cycle() -> None:
    graph = {m: deps - {"__init__"} for m, deps in _graph().items()}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as e:
        raise AssertionError(f"engine modules import each other in a cycle: {e.args[1]}") from None
    assert set(order) >= set(graph) - {"__init__"}


def test_state_data_is_below_the_game_and_the_game_below_records_and_scenarios() -> None:
    graph = _graph()

    def reaches(module: str) -> set[str]:
        seen, todo = set(), [module]
        while todo:
            for dep in graph[todo.pop()] - seen:
                seen.add(dep)
                todo.append(dep)
        return seen

    assert not reaches("state") & {"game", "view", "record", "scenario"}
    assert not reaches("game") & {"record", "scenario"}
    assert "game" in reaches("record") and "game" in reaches("scenario")
