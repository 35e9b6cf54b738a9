"""Training configuration: YAML files (``configs/default.yaml`` unless another is named; a bare
name is looked up in the working directory's ``configs/``, then among the configs shipped with
the package), any key overridable as ``section.key=value``. Unknown keys and bad values are
errors that name them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml

from phase10_env.engine.config import shipped_configs

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_D = TypeVar("_D", bound="DataclassInstance")

RUNS_DIR = Path("runs")  # where runs/<name>/ go, below the working directory

@dataclass
class EnvSettings:
    num_players: int = 2
    rules: Any = "default"  # a name in configs/rules, a YAML path or a mapping of rule options
    rewards: Any = "shaped"  # a preset name or a mapping (see phase10_env.rewards)
    episode: str = "game"  # "game" or "hand"
    start_phases: str = "first"  # "first", or "random" (every seat starts at a random phase)
    features: str = "standard"  # "standard", or "planning" (adds phase-progress features)
    max_steps: int = 20_000  # actions per game (all seats) before it is cut short


@dataclass
class VecEnvSettings:
    kind: str = "dummy"  # "dummy" (in-process), "subproc" (one process per env) or "native" (the core's batched games)
    num_envs: int = 8


@dataclass
class PPOSettings:
    learning_rate: float = 3e-4
    n_steps: int = 256
    batch_size: int = 512
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    clip_range: float = 0.2
    max_grad_norm: float = 0.5
    kl_coef: float = 0.0  # > 0: after each update, pull the policy toward the one PPO started from (see AnchoredMaskablePPO)
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    precision: str = "fp32"  # backend masked_ppo: "fp32" or "bf16" (the network's forward passes; see precision.py)


@dataclass
class OpponentSettings:
    pool: dict[str, float] = field(default_factory=lambda: {"random": 1.0})  # agent name -> sampling weight
    snapshot_every: int = 0  # learner steps between frozen copies of the learner (0: no self-play)
    snapshot_keep: int = 5  # most recent copies kept in the pool
    snapshot_weight: float = 1.0  # sampling weight shared by the copies


@dataclass
class EvalSettings:
    every: int = 100_000  # learner steps between learning-curve points
    games: int = 100  # games per opponent for each point
    final_games: int = 1000  # games per opponent at the end
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    workers: int = 0  # processes for evaluation and imitation games, torch threads for imitation (0: all cores)


@dataclass
class ImitationSettings:
    teacher: str = ""  # an agent to imitate before PPO starts (e.g. heuristic); "" for none
    games: int = 300  # games recorded with the teacher in every seat
    epochs: int = 10
    batch_size: int = 1024
    learning_rate: float = 1.0e-3
    dagger_rounds: int = 0  # rounds of playing one seat against the teacher and fitting again
    dagger_games: int = 100  # games per round
    dagger_epochs: int = 4  # epochs over all data so far, per round


@dataclass
class RLlibSettings:
    """PPO on Ray RLlib (``backend: rllib``, see :mod:`agents.training.rllib`)."""

    mode: str = "single"  # "single" (learner vs opponents.pool) or "selfplay" (every seat, one shared policy)
    num_env_runners: int = 2  # processes (Ray actors) stepping envs; 0 steps them in the driver
    num_envs_per_env_runner: int = 1
    num_learners: int = 0  # Ray actors updating the network; 0 updates it in the driver
    train_batch_size: int = 4000  # env steps per PPO update
    minibatch_size: int = 512
    num_epochs: int = 4
    lr: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    entropy_coeff: float = 0.01
    vf_loss_coeff: float = 0.5
    clip_param: float = 0.2
    grad_clip: float = 0.5
    hiddens: list[int] = field(default_factory=lambda: [256, 256])


BACKENDS = ("sb3", "masked_ppo", "rllib")
VEC_ENV_KINDS = ("dummy", "subproc", "native")
PRECISIONS = ("fp32", "bf16")
RLLIB_MODES = ("single", "selfplay")


@dataclass
class TrainConfig:
    name: str = "default"
    backend: str = "sb3"  # "sb3" (MaskablePPO), "masked_ppo" (masked_ppo.py on the native core) or "rllib" (Ray RLlib)
    seed: int = 0
    total_timesteps: int = 500_000
    checkpoint_every: int = 100_000
    torch_threads: int = 1
    init_from: str = ""  # a saved model whose policy starts this run (instead of random weights)
    env: EnvSettings = field(default_factory=EnvSettings)
    vec_env: VecEnvSettings = field(default_factory=VecEnvSettings)
    ppo: PPOSettings = field(default_factory=PPOSettings)
    opponents: OpponentSettings = field(default_factory=OpponentSettings)
    eval: EvalSettings = field(default_factory=EvalSettings)
    imitation: ImitationSettings = field(default_factory=ImitationSettings)
    rllib: RLlibSettings = field(default_factory=RLlibSettings)

    def __post_init__(self) -> None:
        if self.env.episode not in ("game", "hand"):
            raise ValueError(f"env.episode must be 'game' or 'hand', not {self.env.episode!r}")
        if self.vec_env.kind not in VEC_ENV_KINDS:
            raise ValueError(f"vec_env.kind must be one of {list(VEC_ENV_KINDS)}, not {self.vec_env.kind!r}")
        for key in ("total_timesteps", "checkpoint_every"):
            if getattr(self, key) <= 0:
                raise ValueError(f"{key} must be positive")
        if not self.opponents.pool and not self.opponents.snapshot_every:
            raise ValueError("opponents.pool is empty and self-play is off: there is no one to play")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {list(BACKENDS)}, not {self.backend!r}")
        if self.backend == "rllib":
            self._check_rllib()
        if self.backend == "masked_ppo":
            self._check_masked_ppo()
        elif self.ppo.precision != "fp32":
            raise ValueError(f"ppo.precision={self.ppo.precision!r} is for backend masked_ppo; backend {self.backend} "
                             f"trains in fp32")

    def _check_masked_ppo(self) -> None:
        if self.vec_env.kind != "native":
            raise ValueError(f"backend masked_ppo steps the native core's batched games: set vec_env.kind: native "
                             f"(not {self.vec_env.kind!r})")
        if self.ppo.precision not in PRECISIONS:
            raise ValueError(f"ppo.precision must be one of {list(PRECISIONS)}, not {self.ppo.precision!r}")
        if self.ppo.batch_size > self.ppo.n_steps * self.vec_env.num_envs:
            raise ValueError(f"ppo.batch_size ({self.ppo.batch_size}) exceeds a rollout (ppo.n_steps x vec_env.num_envs "
                             f"= {self.ppo.n_steps * self.vec_env.num_envs})")
        batched = [o for o in self.opponents.pool if o not in ("random", "heuristic")
                   and not (o.partition(":")[0] in ("ppo", "ppo-sample") and o.partition(":")[2])]
        if batched:
            raise ValueError(f"backend masked_ppo plays opponents random, heuristic, ppo:PATH and ppo-sample:PATH in the "
                             f"native core, not {batched}")
        if self.imitation.teacher not in ("", "heuristic"):
            raise ValueError(f"backend masked_ppo imitates the native core's heuristic (imitation.teacher: heuristic), "
                             f"not {self.imitation.teacher!r}")

    def _check_rllib(self) -> None:
        r = self.rllib
        if r.mode not in RLLIB_MODES:
            raise ValueError(f"rllib.mode must be one of {list(RLLIB_MODES)}, not {r.mode!r}")
        for key in ("num_envs_per_env_runner", "train_batch_size", "minibatch_size", "num_epochs"):
            if getattr(r, key) <= 0:
                raise ValueError(f"rllib.{key} must be positive")
        for key in ("num_env_runners", "num_learners"):
            if getattr(r, key) < 0:
                raise ValueError(f"rllib.{key} must be 0 or more")
        if r.minibatch_size > r.train_batch_size:
            raise ValueError(f"rllib.minibatch_size ({r.minibatch_size}) exceeds rllib.train_batch_size ({r.train_batch_size})")
        unsupported = {"init_from": bool(self.init_from), "imitation.teacher": bool(self.imitation.teacher),
                       "opponents.snapshot_every": bool(self.opponents.snapshot_every),
                       "env.features": self.env.features != "standard"}
        named = [key for key, used in unsupported.items() if used]
        if named:
            raise ValueError(f"{named} are not supported with backend rllib (self-play there is rllib.mode=selfplay)")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _build(cls: type[_D], data: dict[str, Any], where: str) -> _D:
    if not isinstance(data, dict):
        raise ValueError(f"{where or 'config'} must be a mapping, not {data!r}")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ValueError(f"unknown config key(s) {[f'{where}{k}' for k in unknown]}; valid: {[f'{where}{k}' for k in known]}")
    defaults, values = cls(), {}
    for name, value in data.items():
        default = getattr(defaults, name)
        if is_dataclass(default) and not isinstance(default, type):
            values[name] = _build(type(default), value, f"{where}{name}.")
        else:
            values[name] = _coerce(value, default, f"{where}{name}")
    return cls(**values)


def _coerce(value: Any, default: Any, where: str) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{where} must be true or false, not {value!r}")
    elif isinstance(default, int) and not isinstance(default, bool):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where} must be an integer, not {value!r}")
    elif isinstance(default, float):
        if isinstance(value, str):  # YAML 1.1 reads 1e-4 as a string
            try:
                value = float(value)
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{where} must be a number, not {value!r}")
        value = float(value)
    elif isinstance(default, list) and not isinstance(value, list):
        raise ValueError(f"{where} must be a list, not {value!r}")
    elif isinstance(default, dict) and not isinstance(value, dict):
        raise ValueError(f"{where} must be a mapping, not {value!r}")
    return value


def _set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    node = data
    for p in parts[:-1]:
        node = node.setdefault(p, {})
        if not isinstance(node, dict):
            raise ValueError(f"override {dotted!r}: {p!r} is not a section")
    node[parts[-1]] = value


def find_config(name: str | Path | None) -> Path:
    """A training config's file: ``name`` itself if it is a file; else, for a bare name
    (``strong``, ``configs/strong.yaml``), the one in ``./configs`` of the working directory
    first, then the one shipped with the package (default: ``default``)."""
    name = Path(name or "default")
    if name.is_file():
        return name
    stem = name.name[:-5] if name.name.endswith(".yaml") else name.name
    if len(name.parts) > 2 or (len(name.parts) == 2 and name.parts[0] != "configs"):
        raise ValueError(f"no training config at {str(name)!r}")
    places = [Path("configs") / f"{stem}.yaml", shipped_configs() / f"{stem}.yaml"]
    for place in places:
        if place.is_file():
            return place
    known = sorted({p.stem for folder in (Path("configs"), shipped_configs()) for p in folder.glob("*.yaml")})
    raise ValueError(f"no training config {str(name)!r}: looked for {[str(p) for p in places]}; "
                     f"named configs are {known}, or give a YAML path")


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """The config ``path`` (see :func:`find_config`; default ``default``), with
    ``section.key=value`` overrides (values read as YAML)."""
    path = find_config(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for item in overrides or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"an override is key=value (e.g. ppo.learning_rate=1e-4), not {item!r}")
        try:
            parsed = yaml.safe_load(value)
        except yaml.YAMLError as e:
            raise ValueError(f"override {item!r}: the value is not YAML ({e.__class__.__name__}); quote it whole, "
                             f"e.g. 'opponents.pool={{heuristic: 1.0}}'") from None
        _set_path(data, key.strip(), parsed)
    try:
        return _build(TrainConfig, data, "")
    except (TypeError, ValueError) as e:
        raise ValueError(f"{path}: {e}") from None
