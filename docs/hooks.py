"""The site's generated tables: an MkDocs hook that replaces each ``<!-- table: NAME -->`` line of
a page with the Markdown table :data:`TABLES` makes from the code's own definitions (the action
table, the observation layouts, the rule, reward, env and agent options, a run's files), so no
table of the site is written by hand. An unknown name, or a definition with a part this module
has no words for, stops the build with an error naming it.

``tests/docs/test_generated_tables.py`` checks each table against the definitions row by row.
The hook also leaves out of the site the ``# not run: REASON`` notes that code blocks carry for
``tests/docs/test_doc_blocks.py``.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

MARKER = re.compile(r"^<!-- table: ([a-z_]+) -->$", re.M)
# A block's first line "# not run: REASON" is for the test that runs every block
# (tests/docs/test_doc_blocks.py); the reader of the site does not need it.
NOT_RUN_NOTE = re.compile(r"^(```\w+\n)# not run: [^\n]*\n", re.M)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]], align: str = "") -> str:
    """A Markdown table; ``align`` has one letter per column, ``r`` for right-aligned."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = [header, rule, *([str(cell).replace("|", "\\|") for cell in row] for row in rows)]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines)


def span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def numbers(values: Iterable[int]) -> str:
    """``1-12`` for a run of consecutive numbers, else a comma list."""
    ordered = sorted(set(values))
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))


def described(words: dict[str, str], names: Sequence[str], what: str) -> list[str]:
    """The words for each of ``names``, in order; an error if one has none or a word names nothing."""
    missing, extra = [n for n in names if n not in words], sorted(set(words) - set(names))
    if missing or extra:
        raise ValueError(f"docs/hooks.py: {what}: no words for {missing}, words for no field {extra}")
    return [words[n] for n in names]


# --------------------------------------------------------------------------- actions


def action_rows() -> list[tuple[int, int, str, str]]:
    """The action table as rows ``(first id, last id, kind, meaning)``: consecutive ids of the
    same kind and shape, the meaning made from their ``Action`` values."""
    from phase10_env.actions import ACTIONS, HIT_WILD_HIGH, HIT_WILD_LOW
    from phase10_env.engine.cards import COLOUR_OF, COLOURS, NUM_NATURALS, NUMBER_OF, WILD, card_name
    from phase10_env.engine.phases import GroupKind

    def key(i: int) -> tuple[object, ...]:
        a = ACTIONS[i]
        return {"draw": (a.kind, a.draw_from_discard), "lay": (a.kind, a.meld.kind if a.meld else None),
                "discard": (a.kind, a.card == WILD), "skip": (a.kind, a.skip_offset is None)}.get(a.kind, (a.kind,))

    groups: list[list[int]] = []
    for i in range(len(ACTIONS)):
        if groups and key(groups[-1][-1]) == key(i):
            groups[-1].append(i)
        else:
            groups.append([i])
    rows = []
    for ids in groups:
        acts = [ACTIONS[i] for i in ids]
        a = acts[0]
        if a.kind == "draw":
            meaning = "take the discard pile's top card" if a.draw_from_discard else "draw the top card of the draw pile"
        elif a.kind == "lay" and a.meld is not None and a.meld.kind == GroupKind.SET:
            melds = [x.meld for x in acts if x.meld]
            meaning = (f"lay a set: size {numbers(m.size for m in melds)} x number {numbers(m.value for m in melds)}")
        elif a.kind == "lay" and a.meld is not None and a.meld.kind == GroupKind.RUN:
            melds = [x.meld for x in acts if x.meld]
            lengths = sorted({m.size for m in melds})
            starts = ", ".join(f"{n} (start {numbers(m.value for m in melds if m.size == n)})" for n in lengths)
            meaning = f"lay a run: length {starts}"
        elif a.kind == "lay":
            melds = [x.meld for x in acts if x.meld]
            meaning = (f"lay {numbers(m.size for m in melds)} cards of one colour: "
                       f"{', '.join(COLOURS[m.value] for m in melds)}")
        elif a.kind == "hit":
            cards = sorted({x.hit_card for x in acts})
            card_words = [f"number {numbers(c + 1 for c in cards if c < HIT_WILD_HIGH)}"]
            card_words += [w for c, w in ((HIT_WILD_HIGH, "Wild at the high end"), (HIT_WILD_LOW, "Wild at the low end of a run"))
                           if c in cards]
            meaning = (f"hit: target seat offset {numbers(x.seat_offset for x in acts)} x its group "
                       f"{numbers(x.group for x in acts)} x card ({', '.join(card_words)})")
        elif a.kind == "discard" and a.card == WILD:
            meaning = "discard a Wild"
        elif a.kind == "discard":
            colours = ", ".join(COLOURS[c] for c in sorted({COLOUR_OF[x.card] for x in acts}))
            meaning = f"discard a coloured number: colour ({colours}) x number {numbers(NUMBER_OF[x.card] for x in acts)}"
        elif a.kind == "skip" and a.skip_offset is None:
            meaning = "discard a Skip to no effect (only when no player may be skipped, R15)"
        elif a.kind == "skip":
            meaning = f"discard a Skip on the player at seat offset {numbers(x.skip_offset or 0 for x in acts)}"
        else:
            naturals = [x.card for x in acts if x.card < NUM_NATURALS]
            others = [card_name(x.card) for x in acts if x.card >= NUM_NATURALS]
            meaning = (f"choose a card for the lay-down or hit in progress: a coloured number (colour "
                       f"({', '.join(COLOURS[c] for c in sorted({COLOUR_OF[k] for k in naturals}))}) x number "
                       f"{numbers(NUMBER_OF[k] for k in naturals)})" + "".join(f", or `{o}`" for o in others))
        rows.append((ids[0], ids[-1], a.kind, meaning))
    return rows


def actions_table() -> str:
    from phase10_env.actions import describe

    return markdown_table(
        ("ids", "count", "kind", "action", "first and last, as `describe` names them"),
        ((span(first, last), last - first + 1, f"`{kind}`", meaning,
          f"`{describe(first)}`" if first == last else f"`{describe(first)}` ... `{describe(last)}`")
         for first, last, kind, meaning in action_rows()), "rrlll")


# --------------------------------------------------------------------------- observations

OBSERVATION_WORDS = {
    "hand": "own hand: cards per kind",
    "discard_top": "one-hot of the discard pile's top card (zeros if the pile is empty)",
    "discard_counts": "cards per kind in the discard pile (all were seen discarded)",
    "table_counts": "cards per kind laid on the table",
    "seats": "one block per seat offset (0 is the observer, 1 the next player, ...): the seat's values, "
             "then its groups on the table (tables below); blocks of seats a smaller game lacks are zero",
    "pending_groups": "the groups of a lay-down in progress, in the order chosen (group values)",
    "pending_hit": "a hit waiting for its card (table below)",
    "pending_cards": "cards the move in progress has settled (its groups' and chosen cards)",
    "stage": "one-hot for the player to act (table below)",
    "game": "the game's values (table below)",
}
SEAT_WORDS = {
    "present": "the seat is in the game",
    "active": "the seat plays (not left out of a tie replay, R19)",
    "phase": "one-hot of the phase being played, 1-10",
    "phases_completed": "phases completed, as a share of `phases_to_win` (10 in the standard game)",
    "phases_left": "phases still to complete, as a share of `phases_to_win`",
    "laid": "its phase is down this hand",
    "hand_size": "cards in hand",
    "score": "score / 100",
    "skip_pending": "a Skip waits for it",
    "lost_turn": "its last turn was lost to a Skip",
    "skipped_this_hand": "it was skipped this hand",
    "dealer": "it dealt this hand",
    "to_act": "it is to act",
}
GROUP_WORDS = {
    "present": "the group exists",
    "kind": "one-hot: set, run, colour group",
    "numbers": "numbers covered, 1-12 (a set's number, a run's span)",
    "colour": "one-hot colour of a colour group: red, blue, green, yellow",
    "size": "cards / 12",
    "wild_low": "takes a Wild at its low end (R14)",
    "wild_high": "takes a Wild at its high end (R14)",
}
PENDING_HIT_WORDS = {
    "seat": "one-hot target seat offset from the player to act",
    "group": "one-hot group of that seat",
    "number": "one-hot number the hit plays, 1-12",
}
STAGE_WORDS = {
    "draw": "to draw",
    "play": "to play (lay down, hit, discard)",
    "next_group": "to choose a lay-down's second group",
    "choose_card": "to choose a card for the move in progress",
}
GAME_WORDS = {
    "tie_replay": "a tie replay is being played (R19)",
    "draw_pile": "draw pile size / 108",
    "discard_pile": "discard pile size / 108",
}
PLANNING_WORDS = {
    "progress": "cards still missing for the phase / 10, ways to finish / 12",
    "progress_with_discard": "the same if the discard pile's top card were taken",
    "missing_without": "per card kind held: (cards missing after discarding one + 1) / 11; 0 for kinds not held",
    "ways_without": "per card kind held: ways to finish after discarding one / 12",
    "discard_below_top": "one-hot of the discard pile's second card from the top",
    "next_player_took": "cards per kind the next player took from the discard pile and has not played since",
}


def layout_table(layout: Any, words: dict[str, str], what: str, shapes: dict[str, tuple[int, int]] | None = None) -> str:
    """A layout's fields: offsets, sizes (as ``rows x values`` where ``shapes`` says so), meanings."""
    shapes = shapes or {}
    meanings = described(words, layout.names(), what)
    rows = []
    for (name, size), meaning in zip(layout.fields, meanings):
        part = layout[name]
        if name in shapes:
            count, each = shapes[name]
            if count * each != size:
                raise ValueError(f"docs/hooks.py: {what}: {name} is {size} values, not {count} x {each}")
            size_text = f"{count} x {each}"
        else:
            size_text = str(size)
        rows.append((f"`{name}`", span(part.start, part.stop - 1), size_text, meaning))
    return markdown_table(("part", "values", "size", "meaning"), rows, "lrrl")


def observation_table() -> str:
    from phase10_env.actions import GROUPS_PER_SEAT, MAX_SEATS
    from phase10_env.observation import GROUP_VALUES, OBSERVATION, SEAT_BLOCK

    return layout_table(OBSERVATION, OBSERVATION_WORDS, "the observation",
                        {"seats": (MAX_SEATS, SEAT_BLOCK), "pending_groups": (GROUPS_PER_SEAT, GROUP_VALUES)})


def seat_table() -> str:
    from phase10_env.observation import SEAT

    return layout_table(SEAT, SEAT_WORDS, "a seat's values")


def group_table() -> str:
    from phase10_env.observation import GROUP

    return layout_table(GROUP, GROUP_WORDS, "a group's values")


def tail_tables() -> str:
    from phase10_env.observation import GAME, PENDING_HIT, STAGE

    return "\n\n".join(f"`{name}`:\n\n{layout_table(layout, words, name)}" for name, layout, words in
                       (("pending_hit", PENDING_HIT, PENDING_HIT_WORDS), ("stage", STAGE, STAGE_WORDS),
                        ("game", GAME, GAME_WORDS)))


def planning_table() -> str:
    from phase10_env.planning import PLANNING

    return layout_table(PLANNING, PLANNING_WORDS, "the planning features")


def card_kinds_table() -> str:
    """Card kinds in the engine's order, the order of every 50-value block."""
    from phase10_env.engine.cards import COLOURS, NUM_KINDS, NUM_NUMBERS, card_name

    rows = [(span(c * NUM_NUMBERS, (c + 1) * NUM_NUMBERS - 1), f"`{card_name(c * NUM_NUMBERS)}` ... "
             f"`{card_name((c + 1) * NUM_NUMBERS - 1)}`", f"{colour} 1-{NUM_NUMBERS}") for c, colour in enumerate(COLOURS)]
    first_other = len(COLOURS) * NUM_NUMBERS
    rows += [(str(k), f"`{card_name(k)}`", {"W": "Wild", "S": "Skip"}[card_name(k)]) for k in range(first_other, NUM_KINDS)]
    return markdown_table(("kinds", "cards", "what"), rows, "rll")


# --------------------------------------------------------------------------- options

RULE_WORDS = {
    "phases": ("`all`, `even`, or a list of phase numbers {low}-{high}", ("R20",)),
    "phases_to_win": ("a number from 1 to the length of `phases` (default: all of them)", ("R19", "R20")),
    "advance_all": ("`false`, `true` (one hand per phase, everyone moves on, the lowest total wins)", ("R20",)),
    "natural_rule": ("{choices} (where the one natural card must be)", ("R11",)),
    "skip_rule": ("{choices} (whom a Skip may be aimed at)", ("R15",)),
}


def rule_option_rows() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """``(option, values, default, rules)`` of every rule option, from ``RulesConfig``."""
    from phase10_env.engine.config import NATURAL_RULES, PHASE_PRESETS, SKIP_RULES, RulesConfig
    from phase10_env.engine.phases import PHASES

    names = RulesConfig.option_names()
    words = described(RULE_WORDS, names, "the rule options")
    defaults = inspect.signature(RulesConfig.__init__).parameters
    choices = {"natural_rule": NATURAL_RULES, "skip_rule": SKIP_RULES}
    if list(PHASE_PRESETS) != ["all", "even"]:
        raise ValueError(f"docs/hooks.py: the phase presets are {list(PHASE_PRESETS)}")
    rows = []
    for name, (text, rules) in zip(names, words):
        values = text.format(low=min(PHASES), high=max(PHASES),
                             choices=", ".join(f"`{c}`" for c in choices.get(name, ())))
        default = defaults[name].default
        if name == "phases":
            default = next(p for p, v in PHASE_PRESETS.items() if v == default)
        default_text = "all of `phases`" if default is None else f"`{_yaml_value(default)}`"
        rows.append((name, values, default_text, rules))
    return rows


def rule_options_table() -> str:
    return markdown_table(("option", "values", "default", "rule"),
                          ((f"`{name}`", values, default, ", ".join(f"[{r}](rules.md#{r})" for r in rules))
                           for name, values, default, rules in rule_option_rows()))


def rule_variants_table() -> str:
    """The named variants shipped in ``configs/rules/``, each with the options it sets."""
    import yaml

    from phase10_env.engine.config import RULES_DIR, load_rules

    rows = []
    for path in sorted(RULES_DIR.glob("*.yaml")):
        set_there = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        load_rules(path.stem)  # a variant that does not load stops the build
        options = ", ".join(f"`{k}={_yaml_value(v)}`" for k, v in set_there.items()) or "none: the standard game"
        rows.append((f"`{path.stem}`", options))
    return markdown_table(("`--rules` / `rules=`", "options it sets"), rows)


def _yaml_value(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def rewards_table() -> str:
    """Every reward option, its meaning, and its weight in each preset."""
    from phase10_env.rewards import REWARD_PRESETS, RewardConfig

    words = {"win": "at the game's end, to each winner (tied winners split it)",
             "loss": "at the game's end, to every other player",
             "phase_made": "at each hand's end, to each player who laid their phase in it",
             "went_out": "at each hand's end, to the player who went out",
             "points": "at each hand's end, times the points left in each player's hand (R17)"}
    names = [f.name for f in fields(RewardConfig)]
    meanings = described(words, names, "the reward options")
    presets = list(REWARD_PRESETS)

    def weight(preset: str, name: str) -> str:
        value = getattr(REWARD_PRESETS[preset], name)
        return f"{value:+g}" if value else "0"

    return markdown_table(("option", "when and to whom", *(f"`{p}`" for p in presets)),
                          ((f"`{n}`", m, *(weight(p, n) for p in presets)) for n, m in zip(names, meanings)),
                          "ll" + "r" * len(presets))


ENV_WORDS = {
    "num_envs": "games held and stepped at once",
    "num_players": "players, 2-6",
    "opponents": "the other seats' players (`Phase10Env`: a `Policy` or one per seat; vector env: `\"random\"`, "
                 "`\"heuristic\"`, a batched policy, or one per seat)",
    "mode": "`\"single\"`: one learner seat per game; `\"selfplay\"`: every seat's decisions to the caller",
    "learner_seat": "the learner's seat, or `\"random\"`: a new seat each episode",
    "render_mode": "`\"ansi\"` or `\"human\"`",
    "rules": "a `RulesConfig`, a mapping, a YAML path or a variant's name (rule options as keywords too)",
    "rewards": "a preset's name, a mapping of reward options or a `RewardConfig`",
    "episode": "`\"game\"` or `\"hand\"` (the episode ends with the first hand)",
    "max_steps": "actions in all before truncation",
    "start_phases": "`\"first\"`, or `\"random\"`: each seat starts at a random phase (hand episodes then cover every phase)",
    "features": "`\"standard\"`, or `\"planning\"` to append the planning features",
    "illegal_action": "`\"raise\"` a `ValueError`; the AEC env's `\"terminate\"` ends the episode, the "
                      "Gymnasium view's `\"penalize\"` changes nothing and gives `illegal_reward`",
    "illegal_reward": "the offender's reward under `terminate` or `penalize`",
    "max_cycles": "PettingZoo's name: `max_steps = max_cycles * num_players`",
    "autoreset_mode": "Gymnasium's `NEXT_STEP`, or `SAME_STEP` (the last observation in `infos[\"final_obs\"]`)",
    "backend": "`\"auto\"` (the native core when built), `\"native\"` or `\"python\"`",
}


def env_options_table() -> str:
    """The options of the three envs, from their signatures: which takes which, with its default."""
    from phase10_env.env import raw_env
    from phase10_env.single_agent import Phase10Env
    from phase10_env.vector import Phase10VectorEnv

    classes = (("raw_env", raw_env), ("Phase10Env", Phase10Env), ("Phase10VectorEnv", Phase10VectorEnv))
    signatures = {label: {n: p for n, p in inspect.signature(cls.__init__).parameters.items()
                          if n != "self" and p.kind is not inspect.Parameter.VAR_KEYWORD} for label, cls in classes}
    names: list[str] = []
    for params in signatures.values():
        names += [n for n in params if n not in names]
    meanings = described(ENV_WORDS, names, "the env options")

    def default(label: str, name: str) -> str:
        p = signatures[label].get(name)
        if p is None:
            return ""
        if p.default is inspect.Parameter.empty:
            return "required"
        value = p.default
        return f"`{type(value).__name__}.{value.name}`" if isinstance(value, Enum) else f"`{value!r}`"

    return markdown_table(("option", *(f"`{label}`" for label, _ in classes), "meaning"),
                          ((f"`{n}`", *(default(label, n) for label, _ in classes), m) for n, m in zip(names, meanings)))


def agent_options_rows() -> list[tuple[str, str, str, str, str]]:
    """``(agent, option, values, default, meaning)`` of every option an agent spec takes, from
    the heuristic's, the search's and the champion's config classes; the meanings are their
    docstrings' items."""
    from agents.policies import champion, mcts
    from agents.policies.registry import HEURISTIC_CHOICES
    from phase10_env.heuristic import HeuristicConfig

    ranges = {"mcts": mcts.OPTION_RANGES, "champion": champion.OPTION_RANGES}
    rows = []
    for agent, config in (("heuristic", HeuristicConfig), ("mcts", mcts.SearchConfig), ("champion", champion.ChampionConfig)):
        items = docstring_items(config.__doc__ or "")
        for f in fields(config):
            if f.name not in items:
                raise ValueError(f"docs/hooks.py: {config.__name__}'s docstring does not describe {f.name}")
            if f.type in (bool, "bool"):
                values = "`true`, `false`"
            elif f.name in ranges.get(agent, {}):
                low, high = ranges[agent][f.name]
                values = f"{low:g} to {high:g}"
            elif f.name in HEURISTIC_CHOICES and agent == "heuristic":
                values = ", ".join(f"`{c}`" for c in HEURISTIC_CHOICES[f.name])
            elif f.type in (str, "str") and agent == "mcts":  # the words of its item the config accepts
                values = ", ".join(f"`{w}`" for w in sorted(set(re.findall(r"`(\w+)`", items[f.name])))
                                   if _accepted(config, f.name, w))
            else:
                raise ValueError(f"docs/hooks.py: no values known for the {agent} option {f.name}")
            value = f.default
            rows.append((agent, f.name, values, f"`{str(value).lower() if isinstance(value, bool) else value}`",
                         items[f.name]))
    return rows


def _accepted(config: Any, name: str, value: str) -> bool:
    try:
        config(**{name: value})
    except ValueError:
        return False
    return True


def docstring_items(doc: str) -> dict[str, str]:
    """The ``* ``name``: text`` items of a docstring, text joined onto one line, RST quotes as Markdown."""
    items = {}
    for name, text in re.findall(r"^\s*\* ``(\w+)``(?: or ``\w+``)?: (.*?)(?=^\s*\* ``|\Z|^\s*$)", doc, re.M | re.S):
        items[name] = re.sub(r"``([^`]+)``", r"`\1`", " ".join(text.split())).rstrip(";.") + "."
        items[name] = re.sub(r":\w+:`~?([^`]+)`", lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", items[name])
    return items


def agent_options_table() -> str:
    return markdown_table(("agent", "option", "values", "default", "what it does"),
                          ((f"`{a}`", f"`{o}`", v, d, m) for a, o, v, d, m in agent_options_rows()))


def run_files_table() -> str:
    from agents.training.rundir import RUN_FILES

    return markdown_table(("file", "what it is"), ((f"`{name}`", what) for name, what in RUN_FILES.items()))


TABLES: dict[str, Callable[[], str]] = {
    "actions": actions_table,
    "observation": observation_table,
    "seat": seat_table,
    "group": group_table,
    "tail": tail_tables,
    "planning": planning_table,
    "card_kinds": card_kinds_table,
    "rule_options": rule_options_table,
    "rule_variants": rule_variants_table,
    "rewards": rewards_table,
    "env_options": env_options_table,
    "agent_options": agent_options_table,
    "run_files": run_files_table,
}


def render(markdown: str, where: str = "a page") -> str:
    """``markdown`` with each table marker replaced by its table."""

    def table(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in TABLES:
            raise ValueError(f"{where}: no generated table {name!r}; the tables are {sorted(TABLES)}")
        return TABLES[name]()

    return MARKER.sub(table, markdown)


def on_config(config: Any, **kwargs: Any) -> Any:  # MkDocs hook
    """The checkout the site is built from comes first on the path, before any installed copy
    of the package, so the tables are those of the code beside them."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    for package in ("phase10_env", "agents"):
        loaded = sys.modules.get(package)
        if loaded is not None and not Path(loaded.__file__ or "").resolve().is_relative_to(ROOT):
            raise RuntimeError(f"docs/hooks.py: {package} was imported from {loaded.__file__}, not from {ROOT}")
    return config


def for_site(markdown: str, where: str = "a page") -> str:
    """A page as the site shows it: its tables made, the test's notes left out."""
    return NOT_RUN_NOTE.sub(r"\1", render(markdown, where))


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:  # MkDocs hook
    return for_site(markdown, page.file.src_uri)
