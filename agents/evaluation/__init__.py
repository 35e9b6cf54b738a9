"""Comparing agents: tournaments with confidence intervals and bias tests; the speed benchmark."""
