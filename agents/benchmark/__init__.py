"""Benchmarking RL algorithms on Phase 10: versioned tasks (:mod:`.tasks`), a fixed evaluation
(:mod:`.evaluate`) and scores (:mod:`.scoring`), the protocol (:mod:`.protocol`), the registry
of algorithms (:mod:`.registry`; the built-in ones in :mod:`.algos`), results JSONs
(:mod:`.run`, :mod:`.results`) and the statistics and report over any set of them
(:mod:`.stats`, :mod:`.report`). See docs/BENCHMARK.md.

An algorithm joins with ``register(Algorithm(name, label, train))``, ``train`` taking a
:class:`TrainContext` and returning a :class:`Trained`."""

from . import tasks as tasks  # registers the tasks with Gymnasium
from .registry import Algorithm as Algorithm
from .registry import TrainContext as TrainContext
from .registry import Trained as Trained
from .registry import register as register
