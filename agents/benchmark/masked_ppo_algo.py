"""``phase10 benchmark --algo masked-ppo``: the masked PPO of :mod:`agents.training.masked_ppo`
on the task's games in the native core (:class:`~agents.training.vector_opponents.LearnerEnvs`:
the task's options, training reward and training opponents, ``n_envs`` games at once). Self-play
tasks: the other seats hold a sampling copy of the learner, refreshed at every curve point (the
untrained network's copy, near-uniform over the legal moves, before the first). It evaluates the
policy file it saves (float16 weights, what ``ppo:PATH`` plays), as ``ppo`` does."""

from __future__ import annotations

from phase10_env.observation import observation_bounds

from ..training.config import EnvSettings
from ..training.vector_opponents import LearnerEnvs
from .registry import TrainContext, Trained
from .tasks import Task


def core_settings(task: Task) -> EnvSettings:
    """The task's games as the native core plays them: its options and training reward."""
    return EnvSettings(num_players=task.num_players, rules=task.rules_config(), rewards=dict(task.rewards),
                       episode=task.episode, start_phases=task.start_phases,
                       features=str(task.env_options.get("features", "standard")), max_steps=task.max_steps)


def learner_envs(ctx: TrainContext, env: EnvSettings) -> LearnerEnvs:
    """``n_envs`` of the task's games (``env``) in the core, the other seats its training
    opponents, or self-play copies once :meth:`~LearnerEnvs.set_snapshots` gives them."""
    pool = {} if ctx.self_play else {ctx.task.train_opponents: 1.0}
    return LearnerEnvs(env, int(ctx.hyperparameters["n_envs"]), pool, 1.0, ctx.self_play, ctx.seed)


def train_masked_ppo(ctx: TrainContext) -> Trained:
    """Whole rollouts to each mark (the steps taken are what is reported), a curve point at each."""
    import torch

    from ..policies.network import PolicyNetAgent
    from ..training.config import PPOSettings
    from ..training.masked_ppo import MaskedPPO, new_policy
    from .algos import _saved_policy

    torch.set_num_threads(1)
    torch.manual_seed(ctx.seed)
    hp, task = ctx.hyperparameters, ctx.task
    env = core_settings(task)
    keys = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "vf_coef",
            "clip_range", "max_grad_norm")
    settings = PPOSettings(**{k: hp[k] for k in keys if k in hp}, net_arch=list(hp["net_arch"]))
    envs = learner_envs(ctx, env)
    model = MaskedPPO(new_policy(int(observation_bounds(env.features)[0].shape[0]), settings.net_arch,
                                 settings.learning_rate), settings, str(hp.get("precision", "fp32")), ctx.seed)
    if ctx.self_play:
        envs.set_snapshots([model.policy])
    for mark in ctx.marks:
        if mark > model.num_timesteps:
            model.learn(envs, mark - model.num_timesteps)
        ctx.checkpoint(PolicyNetAgent(model.policy, "masked-ppo"), model.num_timesteps,
                       opponent=PolicyNetAgent(model.policy, "self", deterministic=False))
        if ctx.self_play:
            envs.set_snapshots([model.policy])
    agent, path = _saved_policy(model.policy, ctx.model_dir)
    return Trained(agent, model.num_timesteps, path)
