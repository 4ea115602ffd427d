# ruff: noqa: E501  (a table of snippets: one mutant per entry, long lines read better)
"""Mutants of Zombie Apocalypse (shared/rules/zombie-apocalypse.md, A*; and the 7th-edition core
rules it plays in its own kernels).

``TESTS``: the Apocalypse rules tests (and the grenade and terrain rules), with the JIT off.
"""

from mutant import Mutant as M

TESTS = ["tests/apocalypse/test_apocalypse_mutant_kills.py", "tests/apocalypse/test_apocalypse_rules.py"]
TIMEOUT = 400.0

K = "kernels/apocalypse/"
AS, ST, SH, HO, MV, NO = (K + f for f in ("assault.py", "strike.py", "shooting.py", "hordes.py", "movement.py", "noise.py"))

MUTANTS = [
    M("ap_morale_double_one", "core §9.1", AS, "    if fearless or (d1 == 1 and d2 == 1):\n        return True",
      "    if fearless:\n        return True", "a double 1 does not always pass a Morale check"),
    M("ap_morale_stubborn", "core §12", AS, "return d1 + d2 <= ld - (0 if stubborn else modifier)", "return d1 + d2 <= ld - modifier",
      "Stubborn takes the combat's difference"),
    M("ap_plague_ic_first_wound", "§5, A23", AS, "        return die + max(0, wounds_this_turn - 1) >= ic_on",
      "        return die + wounds_this_turn >= ic_on", "an Independent Character adds the first wound too"),
    M("ap_plague_on", "§5", AS, "    return die >= on\n\n\n@njit\ndef sweep_caught", "    return die > on\n\n\n@njit\ndef sweep_caught",
      "the Plague needs one more than its number"),
    M("ap_sweep_tie", "core §7.5", AS, "    return zombie_total >= unit_total", "    return zombie_total > unit_total",
      "a Sweeping Advance tie goes to the loser"),
    M("ap_fear_atsknf", "core §9.4, §12", AS, "    if is_fearless(st, g, u) or knows_no_fear(st, g, u):\n        return True\n    return leadership_test(",
      "    if is_fearless(st, g, u):\n        return True\n    return leadership_test(", "And They Shall Know No Fear does not pass Fear"),
    M("ap_strength_cap", "§5, A22", ST, "    return min(int(tb.prm[P_STR_CAP]), base_s + bonus)", "    return base_s + bonus",
      "the hordes' Strength bonus is not capped at 10"),
    M("ap_first_zombie_stack", "A24", ST, "    bonus = k * (2 if (is_first and stack_first) else 1)", "    bonus = k * (2 if is_first else 1)",
      "the First Zombie stacks his +k without the 'stack' reading"),
    M("ap_dull_witted_equal", "§5", ST, "    return dull_witted and target_ws > attacker_ws", "    return dull_witted and target_ws >= attacker_ws",
      "Dull Witted applies against an equal WS"),
    M("ap_resilience_cap", "§5, A22", HO, "    return max(best, base - k)\n", "    return base - k\n",
      "Resilience improves the save beyond its best (2+)"),
    M("ap_first_zombie_inv", "§5, A24", HO, "    return max(best, base - k * (2 if stack else 1))", "    return max(best, base - k * (2 if stack else 0))",
      "the First Zombie's 5+ is not improved by k"),
    M("ap_juggernaut_ratio", "§5", HO, "    return juggernauts >= 1 and juggernauts * ratio >= zombies + brutes",
      "    return juggernauts >= 1 and juggernauts * ratio > zombies + brutes", "exactly 10 per Juggernaut does not give the bonus"),
    M("ap_noise_pistol", "§9.3", SH, "    if kind == K_PISTOL:\n        base = 1.0", "    if kind == K_PISTOL:\n        base = 2.0",
      "a pistol makes 2 noise, not 1"),
    M("ap_noise_template", "§9.3", SH, "    if weapon[W_TEMPLATE] != 0:\n        base += tb.prm[P_NOISE_TEMPLATE]",
      "    if weapon[W_TEMPLATE] != 0:\n        base += 0.0", "a template makes no extra noise"),
    M("ap_noise_move6", "§9.3, A17", NO, "    over6 = moved > tb.prm[P_NOISE6_IN] + 1e-9", "    over6 = moved > tb.prm[P_NOISE6_IN] + 1.0",
      "moving 6-7 inches makes no noise"),
    M("ap_off_table_all", "core §9.3", MV, "    if radius <= 0.0 or over >= 2.0 * radius:\n        return n_models",
      "    if radius <= 0.0 or over >= 0.0:\n        return n_models", "a unit that falls back a little past the edge loses every model"),
]
