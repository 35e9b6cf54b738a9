"""The numbers the documentation states are those of the definitions: the sizes of the action and
observation spaces wherever a docstring, the README or a page of docs/ names them, and the action
and observation tables of the modules' docstrings row by row (ids, counts, parts, sizes), so a
change of the layout that the docs do not follow fails here. The site's own tables are generated
from the definitions (tests/docs/test_generated_tables.py)."""

from __future__ import annotations

import ast
import re
from math import prod
from pathlib import Path

import pytest

from phase10_env.actions import ACTIONS, NUM_ACTIONS
from phase10_env.observation import GROUP_VALUES, OBS_SIZE, OBSERVATION, SEAT_BLOCK, SEAT_VALUES
from phase10_env.planning import PLANNING, PLANNING_SIZE

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MODULES = sorted((ROOT / "phase10_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py"))


def docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return [doc for n in nodes if (doc := ast.get_docstring(n))]


PAGES = sorted((ROOT / "docs").rglob("*.md"))
DOCS = ({"README.md": README} | {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in PAGES}
        | {str(p.relative_to(ROOT)): "\n".join(docstrings(p)) for p in MODULES})


@pytest.mark.parametrize("where", sorted(DOCS))
def test_space_sizes_named_in_the_docs_are_the_real_ones(where: str) -> None:
    text = DOCS[where]
    for n in re.findall(r"Discrete\((\d+)\)", text) + re.findall(r"\(0, 1, \((\d+),\), int8\)", text):
        assert int(n) == NUM_ACTIONS, f"{where} says the action space has {n} actions; it has {NUM_ACTIONS}"
    for n in re.findall(r"Box\((\d+),\)", text):
        assert int(n) in (OBS_SIZE, OBS_SIZE + PLANNING_SIZE), f"{where} says Box({n},); the observation has {OBS_SIZE}"


def test_the_checks_find_sizes_in_the_docs() -> None:
    found = [where for where, text in DOCS.items() if re.search(r"Discrete\(\d+\)|Box\(\d+,\)", text)]
    assert {"docs/environment.md", "phase10_env/env.py", "phase10_env/single_agent.py"} <= set(found)


# --------------------------------------------------------------------------- action tables


def _id_rows(lines: list[str]) -> list[tuple[int, int, int]]:
    """(first id, last id, count) of each row of an action table."""
    rows = []
    for ids, count in lines:
        numbers = [int(n) for n in re.findall(r"\d+", ids)]
        if "," in ids:  # "0, 1": one row of single ids
            rows += [(n, n, 1) for n in numbers]
            assert int(count) == len(numbers)
        else:
            rows.append((numbers[0], numbers[-1], int(count)))
    return rows


def _check_action_rows(rows: list[tuple[int, int, int]]) -> None:
    assert rows[0][0] == 0 and rows[-1][1] == NUM_ACTIONS - 1
    for (first, last, count), following in zip(rows, rows[1:] + [(NUM_ACTIONS, 0, 0)]):
        assert count == last - first + 1, f"ids {first}-{last} are {last - first + 1}, not {count}"
        assert following[0] == last + 1, f"the table skips or repeats ids after {last}"
        kinds = {ACTIONS[i].kind for i in range(first, last + 1)}
        assert len(kinds) == 1, f"ids {first}-{last} mix actions of kinds {kinds}"


def test_actions_module_table() -> None:
    import phase10_env.actions

    doc = phase10_env.actions.__doc__ or ""
    lines = re.findall(r"^(\d+(?:-\d+)?)\s+(\d+)\s+\S", doc, re.M)
    _check_action_rows(_id_rows(lines))


# --------------------------------------------------------------------------- observation tables


def _size(text: str) -> int:
    return prod(int(n) for n in re.findall(r"\d+", text))


def _check_parts(rows: list[tuple[str, str]], layout_fields: tuple[tuple[str, int], ...]) -> None:
    assert [name for name, _ in rows] == [name for name, _ in layout_fields]
    for (name, size), (_, real) in zip(rows, layout_fields):
        assert _size(size) == real, f"{name} is said to have {size} values; it has {real}"
    said = {name: size for name, size in rows}
    if "seats" in said:
        assert said["seats"].replace(" ", "").endswith(f"x{SEAT_BLOCK}")
        assert said["pending_groups"].replace(" ", "").endswith(f"x{GROUP_VALUES}")


def _check_block_sizes(text: str) -> None:
    """The seat block's parts where the text names them: '22 seat values', '2 groups x 23'."""
    for n in re.findall(r"(\d+) seat values", text):
        assert int(n) == SEAT_VALUES
    for n in re.findall(r"groups x (\d+)", text):
        assert int(n) == GROUP_VALUES
    assert re.search(r"groups x \d+", text)


def test_observation_module_table() -> None:
    import phase10_env.observation

    doc = phase10_env.observation.__doc__ or ""
    rows = re.findall(r"^([a-z_]+)\s+(\d+(?: x \d+)?)\s+\S", doc, re.M)
    _check_parts(rows, OBSERVATION.fields)
    _check_block_sizes(doc)


def test_planning_module_table() -> None:
    import phase10_env.planning

    doc = phase10_env.planning.__doc__ or ""
    rows = re.findall(r"^([a-z_]+)\s+(\d+)\s+\S", doc, re.M)
    _check_parts(rows, PLANNING.fields)
