"""Zombies Out West kernels (numba only): state layout, Fate deck, shooting, melee, bites,
zombie groups, human actions and the turn loop. Imports numpy, numba and the generic
``kernels`` modules only; rules arrive as the arrays of ``state.Tables``."""
