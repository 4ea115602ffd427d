"""Experiments on top of the game model: odds tables, benchmarks, sweeps, reports and the CLI.

Imports flow one way: ``kernels`` <- ``sim`` <- ``experiments``; the typer CLI
(`experiments.cli`) parses, calls one function of this package and prints.
"""
