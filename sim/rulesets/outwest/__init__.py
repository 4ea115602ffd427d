"""Zombies Out West (shared/rules/zombies-out-west.md): a Wild West skirmish on The Rules With No
Name. Figures act when their card comes up from the Fate deck; zombie groups of 3-6 move D6"
(sixes roll on), fight by opposed dice that count sixes, and bite; bitten humans may lapse, die
and rise as zombies. Kernels in ``kernels/outwest/``, rule data in ``sim/data/outwest/``.
"""

from sim.rulesets.outwest.ruleset import OutwestRuleset

RULESET = OutwestRuleset()
