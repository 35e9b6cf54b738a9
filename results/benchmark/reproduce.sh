#!/usr/bin/env bash
# Re-create every figure of the benchmark table (docs/BENCHMARK.md, README "Benchmarking RL
# algorithms"): protocol v1 of configs/benchmark/protocol.yaml, hyperparameters in
# configs/benchmark/<algo>.yaml. Run from the repository's root; `bash results/benchmark/reproduce.sh [part]`
# with part one of: references mcts bc ppo dqn rllib report (default: all but dqn and rllib).
# dqn needs the integrations extra and rllib-ppo the rllib extra, in their own virtual
# environment (README "Scaling out"): set PY to its python, e.g. PY=/tmp/phase10-integrations/bin/python.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
PY=${PY:-python}
part=${1:-default}
out=(--out results/benchmark)  # the commands write under runs/ unless told
run() { [[ $part == "$1" || ($part == default && $1 != dqn && $1 != rllib) ]]; }

if run references; then
  for agent in random heuristic; do phase10 benchmark --algo ref --agent "$agent" --task all "${out[@]}"; done
fi
if run mcts; then  # about 100 ms a decision: fewer evaluation episodes, recorded in the JSON
  phase10 benchmark --algo ref --agent mcts --task OneHand-2p-Heuristic-v0 --games 20 "${out[@]}"
  phase10 benchmark --algo ref --agent mcts --task FullGame-2p-Heuristic-v0 --games 4 "${out[@]}"
  phase10 benchmark --algo ref --agent mcts --task SelfPlay-4p-v0 --games 4 "${out[@]}"
fi
if run bc; then phase10 benchmark --algo bc --task all "${out[@]}"; fi
if run ppo; then phase10 benchmark --algo ppo --task all "${out[@]}"; fi
if run dqn; then "$PY" -m agents.cli benchmark --algo dqn --task all "${out[@]}"; fi
if run rllib; then "$PY" -m agents.cli benchmark --algo rllib-ppo --task all "${out[@]}"; fi
if run report; then phase10 benchmark-report results/benchmark/*__*.json --out results/benchmark; fi
