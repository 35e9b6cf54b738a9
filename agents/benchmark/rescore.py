"""``phase10 benchmark-rescore``: play a results file's evaluation again with the agents its
runs saved (or its reference agent) and check that every episode ends as recorded, so a row
can be re-scored without training again."""

from __future__ import annotations

from pathlib import Path

from ..policies.registry import make_agent
from .evaluate import Episode, evaluate
from .protocol import CONFIG_DIR, load_protocol
from .registry import get_algorithm
from .results import check_file
from .tasks import get_task


def rescore(path: Path, config_dir: Path = CONFIG_DIR) -> str:
    """Re-evaluate every run of the file at ``path``; a ``ValueError`` names the first episode
    that ends otherwise (or a run with no saved agent). Returns a line saying what was checked."""
    data = check_file(path, load_protocol(config_dir))
    task, p = get_task(data["task"]), data["protocol"]
    algorithm = None if data["kind"] == "reference" else get_algorithm(data.get("algo_spec", data["algo"]))
    for i, run in enumerate(data["runs"]):
        if algorithm is None:
            agent = make_agent(data["algo"], run["seed"])
        elif algorithm.load is None or not run.get("model"):
            raise ValueError(f"{path}: runs[{i}].model: no saved agent to re-score ({data['algo']} has no loader, or "
                             f"the run saved none); regenerate it with: {data.get('command', 'phase10 benchmark ...')}")
        elif not Path(run["model"]).is_file():
            raise ValueError(f"{path}: runs[{i}].model: no file at {run['model']!r}")
        else:
            agent = algorithm.load(run["model"], data["hyperparameters"])
        replay = evaluate(task, agent, p["eval_games"], p["eval_seed"]).episodes
        for g, (recorded, now) in enumerate(zip(run["episodes"], replay)):
            if Episode.from_json(recorded) != now:
                raise ValueError(f"{path}: runs[{i}].episodes[{g}]: recorded {recorded}, played again {now.to_json()}")
    episodes = sum(len(run["episodes"]) for run in data["runs"])
    return f"{path}: {len(data['runs'])} run(s), {episodes} episodes: every one ends as recorded"
