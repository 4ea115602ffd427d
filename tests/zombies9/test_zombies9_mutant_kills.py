"""Rules of Zombies!!! that a mutant of tests/mutants/zombies9.py breaks (named in each docstring):
hand-fed dice (``z9dice``) and hand-built maps (z9_scene), at the rules' edge cases.
"""

from __future__ import annotations

from kernels.zombies9 import layout as L


def _k(name):
    import importlib

    return importlib.import_module(f"kernels.zombies9.{name}")


def test_a_roll_equal_to_the_kill_number_kills(z9dice, rng):
    """A8: 4 or more kills (z9_kill_strict)."""
    z9dice.script(4)
    assert _k("combat").combat_core(rng, 0, 4, 0, 2, 6, 0, 0, L.COMBAT_RULE) == (True, 6, 0, 0, 1)
    z9dice.done()


def test_bullets_buy_exactly_the_shortfall_and_a_lost_roll_costs_a_whole_life(z9dice, rng):
    """A8, D17: one bullet per point short; a failed roll costs one life token (two halves)
    (z9_bullets_short, z9_life_loss)."""
    core = _k("combat").combat_core
    z9dice.script(2)  # two short, two lives, two bullets: Q4 spends both
    assert core(rng, 0, 4, 0, 2, 4, 2, 0, L.COMBAT_RULE) == (True, 4, 0, 0, 1)
    z9dice.script(1, 6)  # three short, three lives: a life, then a kill
    assert core(rng, 0, 4, 0, 2, 6, 0, 0, L.COMBAT_RULE) == (True, 4, 0, 0, 2)
    z9dice.done()


def test_q4_spends_at_two_lives(z9dice):
    """Q4: spend when life + kits <= 2 (z9_q4_rule)."""
    cs = getattr(_k("combat").choose_spend, "py_func", _k("combat").choose_spend)
    assert cs(2, 4, 2, 0, 2, L.COMBAT_RULE) and not cs(2, 6, 2, 0, 2, L.COMBAT_RULE)


def test_a_z9_tile_must_join_the_graveyard_even_where_town_and_graveyard_may_touch(game):
    """B4.5 / D24: with ``graveyard_separate = false`` (town and graveyard tiles may touch) a Zombies!!! 9
    tile still needs a placed Z9 tile beside it (z9_graveyard_join)."""
    from z9_scene import can_lay, lay

    from sim.rulesets.zombies9.config import default_config

    cfg = default_config(2, mode="mixed", graveyard_separate=False)
    st, tb, rng = game(cfg)
    assert not any(can_lay(st, tb, cfg, "Cemetery", 0, -1, r) for r in range(4))  # beside the town only
    lay(st, tb, cfg, "Graveyard Entrance", 0, -1, 2)
    assert any(can_lay(st, tb, cfg, "Cemetery", 0, -2, r) for r in range(4))
