"""``phase10 benchmark --algo masked-ppo``: the masked PPO of :mod:`agents.training.masked_ppo`
on the task's games in the native core (:class:`~agents.training.vector_opponents.LearnerEnvs`:
the task's options, training reward and training opponents, ``n_envs`` games at once). Self-play
tasks: the other seats hold a sampling copy of the learner, refreshed at every curve point (the
untrained network's copy, near-uniform over the legal moves, before the first). It evaluates the
policy file it saves (float16 weights, what ``ppo:PATH`` plays), as ``ppo`` does."""

from __future__ import annotations

from phase10_env.observation import observation_bounds

from .registry import TrainContext, Trained
from .tasks import SELF_PLAY


def train_masked_ppo(ctx: TrainContext) -> Trained:
    """Whole rollouts to each mark (the steps taken are what is reported), a curve point at each."""
    import torch

    from ..training.config import EnvSettings, PPOSettings
    from ..training.masked_ppo import MaskedPPO, new_policy
    from ..training.vector_opponents import LearnerEnvs
    from .algos import _saved_policy, _sb3_policy_agent

    torch.set_num_threads(1)
    torch.manual_seed(ctx.seed)
    hp, task = ctx.hyperparameters, ctx.task
    features = str(task.env_options.get("features", "standard"))
    env = EnvSettings(num_players=task.num_players, rules=task.rules_config(), rewards=dict(task.rewards),
                      episode=task.episode, start_phases=task.start_phases, features=features, max_steps=task.max_steps)
    keys = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "vf_coef",
            "clip_range", "max_grad_norm")
    settings = PPOSettings(**{k: hp[k] for k in keys if k in hp}, net_arch=list(hp["net_arch"]))
    self_play = task.train_opponents == SELF_PLAY
    pool = {} if self_play else {task.train_opponents: 1.0}
    envs = LearnerEnvs(env, int(hp["n_envs"]), pool, 1.0, self_play, ctx.seed)
    model = MaskedPPO(new_policy(int(observation_bounds(features)[0].shape[0]), settings.net_arch,
                                 settings.learning_rate), settings, str(hp.get("precision", "fp32")), ctx.seed)
    if self_play:
        envs.set_snapshots([model.policy])
    for mark in ctx.marks:
        if mark > model.num_timesteps:
            model.learn(envs, mark - model.num_timesteps)
        ctx.checkpoint(_sb3_policy_agent(model.policy, "masked-ppo"), model.num_timesteps,
                       opponent=_sb3_policy_agent(model.policy, "self", deterministic=False))
        if self_play:
            envs.set_snapshots([model.policy])
    agent, path = _saved_policy(model.policy, ctx.model_dir)
    return Trained(agent, model.num_timesteps, path)
