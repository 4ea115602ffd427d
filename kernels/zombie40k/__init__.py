"""Zombie 40,000's kernels: its game state, phases and turn loop."""
