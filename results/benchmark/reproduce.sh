#!/usr/bin/env bash
# Re-create the benchmark table (docs/BENCHMARK.md): protocol
# v2 of configs/benchmark/protocol.yaml, on the held-out test deals. Run from the repository's
# root: `bash results/benchmark/reproduce.sh [part]`, part one of: references mcts report (the
# default: all three), fullgame (the shipped trained rows: masked-ppo, ppo and bc, 5 seeds each,
# on FullGame-2p-Heuristic-v0), or a trained baseline on every task: masked-ppo ppo bc dqn rllib
# (each 5 seeds x 5 tasks at the protocol's budgets; see docs/BENCHMARK.md "Trained baselines").
# dqn needs the integrations extra and rllib-ppo the rllib extra, in their own virtual
# environment (docs/training.md, "Scaling out"): set PY to its python, e.g. PY=/tmp/phase10-integrations/bin/python.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
PY=${PY:-python}
part=${1:-default}
out=results/benchmark
run() { [[ $part == "$1" || ($part == default && ($1 == references || $1 == mcts || $1 == report)) ]]; }
bench() { "$PY" -m agents.cli benchmark --split test --out "$out" --models "$out/models" "$@"; }

if run references; then
  for agent in random heuristic; do bench --algo ref --agent "$agent" --task all; done
fi
if run mcts; then bench --algo ref --agent mcts --task all; fi  # the search agent (its play-outs in the native core)
if run fullgame; then
  for algo in masked-ppo ppo bc; do bench --algo "$algo" --task FullGame-2p-Heuristic-v0; done
fi
if run masked-ppo; then bench --algo masked-ppo --task all; fi
if run ppo; then bench --algo ppo --task all; fi
if run bc; then bench --algo bc --task all; fi
if run dqn; then bench --algo dqn --task all; fi
if run rllib; then bench --algo rllib-ppo --task all; fi
if run report; then "$PY" -m agents.cli benchmark-report "$out"/*__*.json --out "$out"; fi
