"""An entrant for the benchmark's tests: a "learner" that has learnt to play exactly like the
heuristic, at no cost, so that runs and reports are tested without training."""

from __future__ import annotations

from agents.benchmark import Algorithm, TrainContext, Trained, register
from agents.policies.registry import make_agent

NAME = "heuristic-copy"


def train_like_the_heuristic(ctx: TrainContext) -> Trained:
    agent = make_agent("heuristic")
    for mark in ctx.marks:
        ctx.checkpoint(agent, mark)
    return Trained(agent, ctx.budget)


register(Algorithm(NAME, "a copy of the heuristic", train_like_the_heuristic))
