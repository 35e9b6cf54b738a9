"""Benchmarking RL algorithms on Phase 10: versioned tasks (:mod:`.tasks`), a fixed evaluation
(:mod:`.evaluate`), training adapters (:mod:`.algos`), results JSONs (:mod:`.run`) and the
rliable-style statistics and report over any set of them (:mod:`.stats`, :mod:`.report`).
See docs/BENCHMARK.md."""

from . import tasks as tasks  # registers the tasks with Gymnasium
