"""numba kernels: dice, attack resolution, movement, spawning, power-ups and the turn loop.

This package imports numpy and numba only, never anything of Shamble's above it
(kernels <- sim <- experiments). Rules reach the kernels as integer arrays built by
`sim.w40k.tables`; every kernel takes them as arguments.
"""
