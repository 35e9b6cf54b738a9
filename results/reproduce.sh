#!/usr/bin/env bash
# Re-creates every figure in this folder (and in the README's results table).
# Usage: results/reproduce.sh [bench|heuristic|default|strong|all]   (default: all)
# Times on the 2-core reference machine: bench ~1.5 min, heuristic ~15 min,
# default ~5 min, strong ~1.5 h.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"

run() { echo "+ $*"; "$@" 2>&1 | tee -a "$log"; }

if [[ $what == bench || $what == all ]]; then
  log=results/bench.txt; : > "$log"
  run phase10 bench --seconds 10 --json results/bench.json
fi

if [[ $what == heuristic || $what == all ]]; then
  for n in 2 4 6; do
    games=$([[ $n == 6 ]] && echo 600 || echo 1000)
    log=results/heuristic_vs_random_${n}p.txt; : > "$log"
    run phase10 eval --agents heuristic random --players $n --games $games --seed $((n / 2)) \
      --json results/heuristic_vs_random_${n}p.json
    games=$([[ $n == 2 ]] && echo 2000 || echo "$games")
    log=results/heuristic_mirror_${n}p.txt; : > "$log"
    run phase10 eval --agents heuristic --players $n --games $games --seed $((3 + n / 2)) \
      --json results/heuristic_mirror_${n}p.json
  done
fi

if [[ $what == default || $what == all ]]; then
  log=results/train_default.txt; : > "$log"
  start=$(date +%s)
  run python train.py configs/default.yaml
  echo "wall time: $(( $(date +%s) - start )) s" | tee -a "$log"
  cp runs/default/eval.json results/train_default_eval.json
fi

if [[ $what == strong || $what == all ]]; then
  log=results/train_strong.txt; : > "$log"
  start=$(date +%s)
  run python train.py configs/strong.yaml
  echo "wall time: $(( $(date +%s) - start )) s" | tee -a "$log"
  cp runs/strong/eval.json results/train_strong_eval.json
  cp runs/strong/learning_curve.png results/train_strong_curve.png
fi
