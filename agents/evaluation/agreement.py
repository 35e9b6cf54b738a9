"""How often an agent makes the move a teacher makes, by kind of decision: the measure of an
imitation. The teacher plays every seat of fresh games; at each of its decisions with more than
one legal action the student is asked too (its answer is not played), and the two choices are
compared and counted under the kind of the teacher's move (draw, discard, lay, hit, choose, skip).

    python -m agents.evaluation.agreement ppo:models/strong.zip --games 60
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass

from phase10_env import raw_env
from phase10_env.actions import ACTIONS
from phase10_env.play import play

from ..policies.registry import make_agent
from .tournament import game_seed


@dataclass(frozen=True)
class Agreement:
    decisions: Counter[str]  # the teacher's decisions with a choice, by kind of its move
    agreed: Counter[str]  # those where the student chose the same action

    def rate(self, kind: str | None = None) -> float:
        """The share of decisions (of one kind, or all) where the student agreed."""
        total = self.decisions[kind] if kind else sum(self.decisions.values())
        same = self.agreed[kind] if kind else sum(self.agreed.values())
        return same / total if total else 0.0

    def table(self) -> str:
        rows = [f"{'kind':9s} {'decisions':>9s} {'agreement':>9s}"]
        for kind in ["all", *sorted(self.decisions, key=lambda k: -self.decisions[k])]:
            key = None if kind == "all" else kind
            count = sum(self.decisions.values()) if key is None else self.decisions[kind]
            rows.append(f"{kind:9s} {count:9,d} {self.rate(key):9.3f}")
        return "\n".join(rows)


def agreement(student: str, teacher: str = "heuristic", games: int = 60, num_players: int = 2,
              seed: int = 999) -> Agreement:
    """Compare ``student``'s choices with ``teacher``'s over ``games`` games of the teacher; the
    same ``seed`` gives the same games and, for agents that draw at random, the same choices."""
    pupil, master = make_agent(student, seed=game_seed(seed, 0, 0)), make_agent(teacher, seed=game_seed(seed, 0, 1))
    decisions: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    env = raw_env(num_players=num_players)

    def choose(agent: str) -> int:
        seen = env.player_observation(agent)
        action = master.act(seen)
        if len(seen.legal_actions) > 1:
            kind = ACTIONS[action].kind
            decisions[kind] += 1
            agreed[kind] += int(pupil.act(seen) == action)
        return action

    for g in range(games):
        env.reset(seed=game_seed(seed, g))
        play(env, choose)
    return Agreement(decisions, agreed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("student", help="the agent compared, e.g. ppo:models/strong.zip")
    parser.add_argument("--teacher", default="heuristic", help="the agent that plays the games (default heuristic)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=999)
    args = parser.parse_args(argv)
    try:
        result = agreement(args.student, args.teacher, args.games, args.players, args.seed)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print(f"{args.student} against {args.teacher}'s moves, {args.games} games of {args.players} players:")
    print(result.table())


if __name__ == "__main__":
    main()
