"""Training agents: self-play MaskablePPO (sb3), imitation of a teacher, opponent pools, run configs."""
