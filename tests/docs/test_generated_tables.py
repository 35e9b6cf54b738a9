"""The documentation site's tables (docs/hooks.py, which writes them from the code when the site
is built) say what the code defines: each is read back as a reader would read it and compared
with the definitions row by row, independently of how the hook made it. And every table a page
asks for exists, every table exists for some page."""

from __future__ import annotations

import inspect
import re
from dataclasses import fields
from pathlib import Path

import pytest

from phase10_env.actions import ACTIONS, NUM_ACTIONS, describe
from phase10_env.observation import GAME, GROUP, OBSERVATION, PENDING_HIT, SEAT, STAGE
from phase10_env.planning import PLANNING
from tests.docs.helpers import docs_module

ROOT = Path(__file__).resolve().parents[2]
PAGES = {str(p.relative_to(ROOT / "docs")): p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").rglob("*.md"))}


HOOKS = docs_module("hooks")


def rows(table: str) -> list[list[str]]:
    """The body rows of a Markdown table, cells stripped (escaped bars restored)."""
    lines = [line for line in table.splitlines() if line.startswith("|")]
    assert re.fullmatch(r"\|( -{3,}:? \|)+", lines[1]), f"no header rule under {lines[0]}"
    return [[cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines[2:]]


def ids(cell: str) -> tuple[int, int]:
    first, _, last = cell.partition("-")
    return int(first), int(last or first)


def code(cell: str) -> str:
    assert cell.startswith("`") and cell.endswith("`"), cell
    return cell[1:-1]


def test_every_table_a_page_asks_for_exists_and_each_is_used() -> None:
    asked = {name for text in PAGES.values() for name in HOOKS.MARKER.findall(text)}
    assert asked == set(HOOKS.TABLES)
    for where, text in PAGES.items():
        HOOKS.render(text, where)  # an unknown name, or a definition without words, raises
    with pytest.raises(ValueError, match="no generated table 'nothing'"):
        HOOKS.render("<!-- table: nothing -->")


def test_the_site_leaves_out_the_tests_notes_but_not_the_code() -> None:
    page = "Run:\n\n```bash\n# not run: it trains for hours\npython train.py\n```\n"
    assert HOOKS.for_site(page) == "Run:\n\n```bash\npython train.py\n```\n"


def test_the_action_table_covers_every_id_once_each_row_one_kind() -> None:
    table = rows(HOOKS.TABLES["actions"]())
    expected_first = 0
    for cells in table:
        first, last = ids(cells[0])
        assert first == expected_first, f"the table skips or repeats ids before {first}"
        assert int(cells[1]) == last - first + 1
        assert {ACTIONS[i].kind for i in range(first, last + 1)} == {code(cells[2])}
        named = [code(part) for part in cells[4].split(" ... ")]
        assert named == ([describe(first)] if first == last else [describe(first), describe(last)])
        expected_first = last + 1
    assert expected_first == NUM_ACTIONS


@pytest.mark.parametrize("name, layout", [("observation", OBSERVATION), ("seat", SEAT), ("group", GROUP),
                                          ("planning", PLANNING)])
def test_layout_tables_give_each_part_its_place_and_size(name: str, layout) -> None:
    table = rows(HOOKS.TABLES[name]())
    assert [code(cells[0]) for cells in table] == layout.names()
    for cells, (part, size) in zip(table, layout.fields):
        first, last = ids(cells[1])
        assert (first, last + 1) == (layout[part].start, layout[part].stop), part
        sizes = [int(n) for n in re.findall(r"\d+", cells[2])]
        assert (sizes[0] * sizes[1] if len(sizes) == 2 else sizes[0]) == size, part


def test_the_tail_tables_are_the_pending_hit_stage_and_game_layouts() -> None:
    chunks = ("\n\n" + HOOKS.TABLES["tail"]()).split("\n\n`")[1:]
    layouts = (("pending_hit", PENDING_HIT), ("stage", STAGE), ("game", GAME))
    assert len(chunks) == len(layouts)
    for chunk, (name, layout) in zip(chunks, layouts):
        assert chunk.startswith(f"{name}`:")
        assert [code(cells[0]) for cells in rows(chunk)] == layout.names(), name


def test_the_rule_options_table_is_rules_config() -> None:
    from phase10_env.engine.config import RulesConfig

    table = rows(HOOKS.TABLES["rule_options"]())
    assert [code(cells[0]) for cells in table] == RulesConfig.option_names()
    defaults = {p.name: p.default for p in inspect.signature(RulesConfig.__init__).parameters.values() if p.name != "self"}
    said = {code(cells[0]): cells[2] for cells in table}
    assert said["natural_rule"] == f"`{defaults['natural_rule']}`" and said["skip_rule"] == f"`{defaults['skip_rule']}`"
    assert said["advance_all"] == f"`{str(defaults['advance_all']).lower()}`"
    for cells in table:
        for rule in re.findall(r"\[(R\d+)\]\(rules\.md#\1\)", cells[3]):
            assert f'<a id="{rule}"></a>' in PAGES["rules.md"]


def test_the_rule_variants_table_lists_every_shipped_variant() -> None:
    from phase10_env.engine.config import RULES_DIR

    table = rows(HOOKS.TABLES["rule_variants"]())
    assert [code(cells[0]) for cells in table] == sorted(p.stem for p in RULES_DIR.glob("*.yaml"))


def test_the_rewards_table_is_the_presets() -> None:
    from phase10_env.rewards import REWARD_PRESETS, RewardConfig

    table = rows(HOOKS.TABLES["rewards"]())
    assert [code(cells[0]) for cells in table] == [f.name for f in fields(RewardConfig)]
    for cells in table:
        for column, preset in enumerate(REWARD_PRESETS.values(), start=2):
            assert float(cells[column]) == getattr(preset, code(cells[0]))


def test_the_env_options_table_is_the_three_signatures() -> None:
    from phase10_env.env import raw_env
    from phase10_env.single_agent import Phase10Env
    from phase10_env.vector import Phase10VectorEnv

    table = rows(HOOKS.TABLES["env_options"]())
    for column, cls in enumerate((raw_env, Phase10Env, Phase10VectorEnv), start=1):
        params = {n: p for n, p in inspect.signature(cls.__init__).parameters.items()
                  if n != "self" and p.kind is not inspect.Parameter.VAR_KEYWORD}
        taken = {code(cells[0]): cells[column] for cells in table if cells[column]}
        assert set(taken) == set(params), cls.__name__
        for name, cell in taken.items():
            default = params[name].default
            if default is inspect.Parameter.empty:
                assert cell == "required"
            elif not hasattr(default, "name"):  # an enum's default is named, not repr'd
                assert cell == f"`{default!r}`", (cls.__name__, name)


def test_the_agent_options_table_is_the_config_classes() -> None:
    from agents.policies.champion import ChampionConfig
    from agents.policies.mcts import SearchConfig
    from phase10_env.heuristic import HeuristicConfig

    table = rows(HOOKS.TABLES["agent_options"]())
    for agent, config in (("heuristic", HeuristicConfig), ("mcts", SearchConfig), ("champion", ChampionConfig)):
        said = {code(cells[1]): code(cells[3]) for cells in table if code(cells[0]) == agent}
        assert list(said) == [f.name for f in fields(config)]
        for f in fields(config):
            assert said[f.name] == (str(f.default).lower() if isinstance(f.default, bool) else str(f.default))


def test_every_agent_option_value_the_table_offers_is_accepted() -> None:
    from agents import make_agent

    for cells in rows(HOOKS.TABLES["agent_options"]()):
        agent, option = code(cells[0]), code(cells[1])
        offered = re.findall(r"`(\w+)`", cells[2]) or re.findall(r"[\d.]+", cells[2])
        assert offered, cells
        for value in offered:
            make_agent(f"{agent}:{option}={value}")


def test_the_run_files_table_is_run_files() -> None:
    from agents.training.rundir import RUN_FILES

    assert {code(cells[0]): cells[1] for cells in rows(HOOKS.TABLES["run_files"]())} == RUN_FILES
