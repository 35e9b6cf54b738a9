"""The players: random, heuristic, trained networks, a human; and make_agent to build one by spec."""
