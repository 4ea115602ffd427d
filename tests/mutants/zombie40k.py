# ruff: noqa: E501  (a table of snippets: one mutant per entry, long lines read better)
"""Mutants of Zombie 40,000 (shared/rules/zombie40k.md) and of the 7th-edition core it plays
(shared/rules/core-7th-edition.md; kernels/w40k is shared with Zombie Apocalypse).

``TESTS``: the kill tests, the Zombie 40,000 fidelity tests of the once-untested rules and of assault,
and the core rules tests (tests/test_combat_rules.py), with the JIT off.
"""

from mutant import Mutant as M

TESTS = ["tests/zombie40k/test_zombie40k_mutant_kills.py", "tests/zombie40k/test_zombie40k_fidelity_untested_rules.py",
         "tests/zombie40k/test_zombie40k_fidelity_assault.py", "tests/test_combat_rules.py"]
TIMEOUT = 500.0

CORE = "kernels/w40k/combat.py"
AS, MO = "kernels/zombie40k/assault.py", "kernels/zombie40k/morale.py"

MUTANTS = [
    # core §6 shooting and wounds (kernels/w40k, shared)
    M("core_reroll_any", "core §6.3", CORE, "return mode == RR_FAILED or (mode == RR_ONES and die == 1)",
      "return mode == RR_FAILED or mode == RR_ONES", "a re-roll of 1s re-rolls any failure"),
    M("core_wound_six_always", "core §6.5", CORE, "return die >= wound_on or (auto_on_6 != 0 and die == 6)",
      "return die >= wound_on or die == 6", "a 6 always wounds, Rending or not"),
    M("core_save_ap_equal", "core §6.7", CORE, "    armour = sv if ap > sv else NONE", "    armour = sv if ap >= sv else NONE",
      "AP equal to the save leaves the armour save"),
    M("core_save_sum", "core §6.7", CORE, "    return min(armour, inv, cover)\n", "    return min(armour, inv)\n",
      "the cover save is never taken"),
    M("core_id_strict", "core §6.8", CORE, "(strength > 0 and strength >= 2 * toughness)", "(strength > 0 and strength > 2 * toughness)",
      "Strength exactly double the Toughness is no Instant Death"),
    M("core_eternal_warrior", "core §12", CORE, "    if instant_death and not eternal_warrior:\n        return wounds_left",
      "    if instant_death:\n        return wounds_left", "Eternal Warrior does not stop Instant Death"),
    M("core_hit_reroll_bs6", "core §6.3", CORE, "        elif hit_on2 > 0:\n            need = hit_on2",
      "        elif hit_on2 > 99:\n            need = hit_on2", "BS 6+ gets no re-roll"),
    M("core_save_reroll", "core §6.7", CORE, "    if die < need and reroll != 0:\n        die = d6(rng, g)\n    return die >= need",
      "    return die >= need", "a re-rollable save or FNP is never re-rolled"),
    M("core_fnp_vs_id", "core §6.8, §12", CORE, "        return not instant_death and roll_pass(rng, g, stats_m[FNP], save_reroll)",
      "        return roll_pass(rng, g, stats_m[FNP], save_reroll)", "Feel No Pain is taken against Instant Death"),
    M("core_melee_cover", "core §7.3", CORE, "        inv = min(inv, stats_m[INV_CC])\n        cover = NONE",
      "        inv = min(inv, stats_m[INV_CC])", "cover saves are taken in close combat"),
    # core §7 assault, §9 morale (Zombie 40,000's kernels)
    M("z40k_charge_fleet", "core §7.1, §12", AS, "    if a + b + bonus < distance and all_have(st, g, u, MR_FLEET):",
      "    if a + b + bonus < distance and all_have(st, g, u, MR_FLEET) and False:", "Fleet does not re-roll a failed charge"),
    M("z40k_charge_after_run", "core §7.1", AS, "and not in_combat(st, g, u) and s[US_RAN] == 0 and s[US_NO_CHARGE] == 0",
      "and not in_combat(st, g, u) and s[US_NO_CHARGE] == 0", "a squad that ran may charge"),
    M("z40k_charge_bonus_attack", "core §7.3", AS, "    return 2 if unit_flags(st, g, u, m) & MR_RAGE else 1\n",
      "    return 2 if unit_flags(st, g, u, m) & MR_RAGE else 0\n", "charging gives no +1 Attack"),
    M("z40k_defensive_grenades", "core §7.3, §8", AS, "    if target >= 0 and _has_defensive_grenades(st, g, target, tb):\n        return 0",
      "    if False:\n        return 0", "defensive grenades do not cancel the charge bonus"),
    M("z40k_two_handed_pair", "core §12", AS, "    if main[W_FLAGS] & WR_TWO_HANDED or second[W_FLAGS] & WR_TWO_HANDED:\n        return 0",
      "    if False:\n        return 0", "a Two-handed weapon still gets the two-weapons Attack"),
    M("z40k_unwieldy", "core §12", AS, "    if weapon[W_FLAGS] & WR_UNWIELDY or _slowed_by_cover(st, g, u, m, tb):",
      "    if _slowed_by_cover(st, g, u, m, tb):", "an Unwieldy weapon strikes at the model's Initiative"),
    M("z40k_cover_charge_i1", "core §7.1", AS, "    return w < 0 or (tb.weapons[w, W_FLAGS] & WR_ASSAULT_GRENADE) == 0",
      "    return False", "charging through cover never costs Initiative 1"),
    M("z40k_counter_attack", "core §12", AS, "    if flags & MR_COUNTER_ATTACK and st.ustate[g, u, US_CHARGED] == 0",
      "    if flags & MR_COUNTER_ATTACK and st.ustate[g, u, US_CHARGED] == 9", "Counter-attack never gives its +1"),
    M("z40k_combat_loser", "core §7.4", AS, "        if not member[p] or not on_table(st, g, p) or suffered[p] <= inflicted[p]:",
      "        if not member[p] or not on_table(st, g, p) or suffered[p] < inflicted[p]:", "a drawn combat makes both sides test"),
    M("z40k_fearless", "core §9.1", MO, "    if any_has(st, g, u, MR_FEARLESS):\n        return True",
      "    if False:\n        return True", "Fearless squads test Leadership"),
    M("z40k_double_one", "core §9.1", MO, "    return a + b <= ld or (a == 1 and b == 1)", "    return a + b <= ld",
      "a double 1 does not always pass"),
    M("z40k_stubborn", "core §12", MO, "(0 if any_has(st, g, u, MR_STUBBORN) else min(0, modifier))", "min(0, modifier)",
      "Stubborn squads take the negative modifier"),
    M("z40k_quarter_losses", "core §6.1", MO, "    if 4 * (before - alive(st, g, v)) >= before and", "    if 3 * (before - alive(st, g, v)) >= before and",
      "a third, not a quarter, of the squad lost before Morale is tested"),
]
