"""Zombies!!! with Ashes to Ashes (zombies-ashes-to-ashes.md): the ruleset package.

``RULESET`` is what the shared layers see (``sim.ruleset``); ``config`` holds the parameters and
policies, ``data`` the tile and card files, ``compile`` turns a config into the kernels' tables,
``results`` the tidy rows, ``exact`` the combat oracle, ``report`` the report sections,
``trace`` the narrative and the map.
"""

from sim.rulesets.zombies9.ruleset import Zombies9Ruleset

RULESET = Zombies9Ruleset()
