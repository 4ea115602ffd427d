"""Zombie Apocalypse rules of the third fidelity pass (issue 27, items 9-15), each with hand-fed dice
under the root conftest's ``dice`` fixture: split charges (§5, A25), Counter-attack only for a unit
not already locked (core §12), The Plague counting unsaved wounds (§5), a Brute's two-weapon
Attack (§4), every unit of a combat striking at its Initiative step (core §7.3), the spawner's
blast under Foggy (§6, §10) and the deployment roll-off's ties (§3.2)."""

from __future__ import annotations

import numpy as np
from apocalypse_helpers import put_horde, put_unit, table, warlord

import kernels.apocalypse.assault as assault
import kernels.apocalypse.combat as combat
import kernels.apocalypse.setup as setup
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A
from kernels.w40k import columns as L


def _out() -> np.ndarray:
    return np.zeros(N_OUT_A, np.int64)


def _no_overwatch(tb) -> None:
    tb.policy[:, C.POL_OVERWATCH] = 0


def _locked_with(st, u) -> list[int]:
    return [h for h in range(st.lock.shape[2]) if st.lock[0, u, h] != 0]


def _template(tb, owner: int, k: int) -> int:
    """The k-th unit template (0 = the HQ) of player ``owner``."""
    hq = [t for t in range(tb.ut_owner.shape[0]) if tb.ut_owner[t] == owner]
    return hq[k]


# ------------------------------------------------------------------ 9. split charges (§5, A25)


def test_split_charges_send_one_group_at_each_other_unit_never_a_second_at_a_charged_one(dice):
    """§5 Hordes: a horde "may split up to [charge more than one unit]" with 20+ models a group;
    A25: the most models stay on the closest. An 80-model horde with two units in range makes two
    charges: one group of 20 at the farther unit, the rest at the closest (the old code sent four,
    two at each unit, the main target included)."""
    _, tb, st, rng = table()
    _no_overwatch(tb)
    h = put_horde(st, tb, 24, 30, 80)
    near = put_unit(st, tb, 1, 24, 30 - st.hrad[0, h] - 4.0)  # the Tactical Squad, 3-4" away
    far = put_unit(st, tb, 3, 24 + st.hrad[0, h] + 8.0, 30)  # the Devastators, about 7" away
    assert zombies.unit_gap_horde(st, 0, near, h) < zombies.unit_gap_horde(st, 0, far, h) <= 12.0
    assert zombies.closest_unit(st, 0, h) == near
    dice.script(6, 6, 6, 6)  # two charges of 2D6, both made
    zombies.split_charges(rng, 0, st, h, near, tb)
    zombies.charge(rng, 0, st, h, near, tb)
    dice.done()
    assert _locked_with(st, near) == [h] and len(_locked_with(st, far)) == 1
    group = _locked_with(st, far)[0]
    assert st.hst[0, group, C.HS_Z] == 20 and st.hst[0, h, C.HS_Z] == 60


def test_split_charges_reach_each_unit_in_range_once(dice):
    """Three units in range of an 80-model horde: one group at each of the two others, the rest at
    the closest (three charges, one per unit)."""
    _, tb, st, rng = table()
    _no_overwatch(tb)
    h = put_horde(st, tb, 24, 30, 80)
    r = st.hrad[0, h]
    near = put_unit(st, tb, 1, 24, 30 - r - 4.0)
    right = put_unit(st, tb, 3, 24 + r + 8.0, 30)
    left = put_unit(st, tb, 2, 24 - r - 9.0, 30)
    dice.script(*[6] * 6)
    zombies.split_charges(rng, 0, st, h, near, tb)
    zombies.charge(rng, 0, st, h, near, tb)
    dice.done()
    assert [len(_locked_with(st, u)) for u in (near, right, left)] == [1, 1, 1]
    assert st.hst[0, h, C.HS_Z] == 40


# ------------------------------------------------------------------ 10. Counter-attack (core §12)


def _defence_marines(st, tb):
    w = put_unit(st, tb, 0, 5, 5)  # the Captain, far away: his trait gives the detachment Counter-attack
    u = put_unit(st, tb, 1, 20, 20)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_DEFENCE
    warlord(st, tb)
    assert w >= 0 and st.mflags[0, u, 0] & L.MR_COUNTER_ATTACK
    return u


def _marine_attacks(st, tb, u, hordes_):
    st.w_cu[0] = u
    st.w_ch[:len(hordes_)] = hordes_
    assault.prepare_strikes(st, 0, 1, 1, len(hordes_), tb)
    return int(st.w_ma[u, 0])


def test_counter_attack_only_for_a_unit_not_already_locked(dice):
    """Core §12 Counter-attack: "If the unit is charged (and was not already locked)". Tactical
    Marines (A1) locked with one horde and charged by a second strike once, not twice."""
    _, tb, st, rng = table()
    _no_overwatch(tb)
    u = _defence_marines(st, tb)
    first = put_horde(st, tb, 20, 24, 10)
    st.lock[0, u, first] = 1
    st.hst[0, first, C.HS_LOCKED] = 1
    second = put_horde(st, tb, 30, 20, 10)
    dice.script(6, 6)
    assert zombies.charge(rng, 0, st, second, u, tb)
    dice.done()
    assert st.ust[0, u, C.US_WAS_CHARGED] == 0
    assert _marine_attacks(st, tb, u, [first, second]) == 1


def test_counter_attack_for_a_free_unit_that_is_charged(dice):
    _, tb, st, rng = table()
    _no_overwatch(tb)
    u = _defence_marines(st, tb)
    h = put_horde(st, tb, 30, 20, 10)
    dice.script(6, 6)
    assert zombies.charge(rng, 0, st, h, u, tb)
    dice.done()
    assert st.ust[0, u, C.US_WAS_CHARGED] == 1
    assert _marine_attacks(st, tb, u, [h]) == 2


# ------------------------------------------------------------------ 11. The Plague counts unsaved wounds (§5)


def test_plague_counts_unsaved_wounds_not_wounds_lost(dice):
    """§5 The Plague: an Independent Character rolls D6 + 1 for every unsaved wound that turn after
    the first. One Instant Death wound (S8 against the Captain's T4) takes his 3 Wounds but is one
    unsaved wound: a Plague die of 5 stays 5 (the old count made it 5 + 2 = 7, a Brute)."""
    _, tb, st, rng = table()
    u = put_unit(st, tb, 0, 20, 20)  # the Captain: IC, Warlord, W3, T4, 3+ / 4++
    h = put_horde(st, tb, 24, 20, 15)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_NONE  # no Tenacity: no Feel No Pain roll
    warlord(st, tb)
    st.w_cu[0], st.w_ch[0] = u, h
    st.lock[0, u, h] = 1
    out = _out()
    dice.script(6, 2, 1)  # hit on a 6 (Dull Witted), wound S8 v T4 on 2+, the 4++ fails on a 1
    unsaved = combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE],
                                    tb.weapons[tb.ids[0]], 8, True, False, False, False, tb, out)
    assert unsaved == 1 and st.wounds[0, u, 0] == 0 and out[L.OUT_UNSAVED] == 1  # core §7.4 counts one too
    assert st.minfo[0, u, 0, C.MI_ZW_TURN] == 1
    dice.script(5)
    assault.plague(rng, 0, st, 1, 1, tb, C.PH_Z_ASSAULT)
    dice.done()
    assert st.pres[0, 0, C.PR_WL_FATE] != C.WL_BRUTE and st.res[0, C.R_BRUTES] == 0


def test_plague_counts_each_unsaved_wound_of_an_independent_character(dice):
    """Two unsaved wounds (S4, no Instant Death) on the Captain: D6 + 1, so a 5 makes a Brute."""
    _, tb, st, rng = table()
    u = put_unit(st, tb, 0, 20, 20)
    h = put_horde(st, tb, 24, 20, 15)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_NONE  # no Tenacity: no Feel No Pain roll
    warlord(st, tb)
    st.w_cu[0], st.w_ch[0] = u, h
    st.lock[0, u, h] = 1
    dice.script(6, 4, 1, 6, 4, 1)  # two attacks: hit, wound S4 v T4 on 4+, save failed
    combat.zombie_attacks(rng, 0, st, u, 2, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE], tb.weapons[tb.ids[0]],
                          4, True, False, False, False, tb, _out())
    assert st.wounds[0, u, 0] == 1 and st.minfo[0, u, 0, C.MI_ZW_TURN] == 2
    dice.script(5)
    assault.plague(rng, 0, st, 1, 1, tb, C.PH_Z_ASSAULT)
    dice.done()
    assert st.pres[0, 0, C.PR_WL_FATE] == C.WL_BRUTE


# ------------------------------------------------------------------ 12. Brutes keep their wargear (§4)


def test_a_brute_keeps_the_two_melee_weapons_attack(dice):
    """§4: a Brute "retain[s] all wargear and special rules of the wargear". An Ork Boy (A2, slugga
    and choppa: +1 Attack for two melee weapons, core §7.3) strikes 3 times; so does his Brute."""
    _, tb, st, _ = table("four_players")
    u = put_unit(st, tb, _template(tb, 2, 1), 20, 20)  # the Goffs' first mob of Boyz
    h = put_horde(st, tb, 24, 20, 15)
    m = 0
    _, host_attacks, _ = assault.melee_choice(st, 0, u, m, 2, 6, tb)
    assert st.stats[0, u, m, L.A] == 2 and host_attacks == 3
    assault.make_brute(st, 0, u, m, h, tb, C.PH_Z_ASSAULT)
    s = int(np.flatnonzero(st.skind[0] == C.SK_BRUTE)[0])
    _, attacks, init = assault._special_strike(st, 0, s, tb)
    assert attacks == 3 and init == 3


def test_a_brute_with_one_melee_weapon_gets_no_extra_attack(dice):
    """A Tactical Marine's Brute: boltgun and bolt pistol, one close combat weapon (the pistol)."""
    _, tb, st, _ = table()
    u = put_unit(st, tb, 1, 20, 20)
    h = put_horde(st, tb, 24, 20, 15)
    assault.make_brute(st, 0, u, 0, h, tb, C.PH_Z_ASSAULT)
    s = int(np.flatnonzero(st.skind[0] == C.SK_BRUTE)[0])
    assert assault._special_strike(st, 0, s, tb)[1] == st.sstats[0, s, L.A] == 1


# ------------------------------------------------------------------ 13. every unit strikes at its step (core §7.3)


def _two_unit_combat(st, tb, template):
    """Unit a locked with horde h1 (which will be empty), unit b with h1 and h2 (10 Zombies)."""
    a = put_unit(st, tb, template, 20, 20)
    b = put_unit(st, tb, template, 20, 26, slot=3)
    h1 = put_horde(st, tb, 24, 22, 1)
    h2 = put_horde(st, tb, 16, 26, 10)
    for u, h in ((a, h1), (b, h1), (b, h2)):
        st.lock[0, u, h] = 1
    st.w_cu[:2] = a, b
    st.w_ch[:2] = h1, h2
    return a, b, h1, h2


def test_player_strikes_go_on_when_one_unit_has_no_target(dice):
    """Core §7.3: every model strikes at its Initiative step. Unit a's only horde is wiped out;
    unit b, still locked with a 10-Zombie horde, strikes (the old code stopped the whole step)."""
    _, tb, st, rng = table()
    a, b, h1, h2 = _two_unit_combat(st, tb, 1)
    assault.prepare_strikes(st, 0, 2, 2, 2, tb)
    st.hst[0, h1, C.HS_Z] = 0  # h1 is wiped out before this step
    step = int(st.w_mi[b, 0])
    n = sum(int(st.w_ma[b, m]) for m in range(st.wounds.shape[2]) if st.wounds[0, b, m] > 0 and st.w_mi[b, m] == step)
    assert n > 0
    dice.script(*[1] * n)  # b's attacks all miss
    assault.player_strikes(rng, 0, st, 2, 2, 2, step, False, tb)
    dice.done()
    assert st.w_mt[b] == h2


def test_hammer_of_wrath_goes_on_when_one_unit_has_no_target(dice):
    """Core §12 Hammer of Wrath: each charging model with it makes its hit at I10; a unit with no
    horde left does not stop the next unit's hits."""
    _, tb, st, rng = table()
    a, b, h1, h2 = _two_unit_combat(st, tb, 2)  # Assault Marines: jump packs, Hammer of Wrath
    st.ust[0, a, C.US_CHARGED] = st.ust[0, b, C.US_CHARGED] = 1
    assault.prepare_strikes(st, 0, 2, 2, 2, tb)
    st.hst[0, h1, C.HS_Z] = 0
    n = sum(1 for m in range(st.wounds.shape[2])
            if st.wounds[0, b, m] > 0 and st.mflags[0, b, m] & L.MR_HAMMER_OF_WRATH)
    assert n > 0
    dice.script(*[1] * n)  # every automatic hit fails to wound
    assault.hammer_of_wrath(rng, 0, st, 2, 2, tb)
    dice.done()


# ------------------------------------------------------------------ 14. the spawner's blast and Foggy (§6, §10)


def _boyz_hit_by_the_blast(dice, foggy: bool) -> int:
    _, tb, st, rng = table("four_players", foggy=foggy)
    u = put_unit(st, tb, _template(tb, 2, 1), 10, 30)  # Ork Boyz in the open: 6+ armour, T4
    assert st.stats[0, u, 0, L.SV] == 6
    dice.script(4, 5)  # S5 v T4 wounds on 3+; the save roll is a 5
    unsaved = combat.blast_on_unit(rng, 0, st, u, 1, 5, tb)
    dice.done()
    return unsaved


def test_spawner_blast_allows_foggy_shrouded_cover(dice):
    """§6 Foggy: every model has Shrouded (5+ cover even in the open); §10's large blast is a
    Barrage, a shooting attack, so an Ork Boy's 5 saves it (the old blast allowed no cover)."""
    assert _boyz_hit_by_the_blast(dice, True) == 0


def test_spawner_blast_without_foggy_leaves_only_the_armour(dice):
    assert _boyz_hit_by_the_blast(dice, False) == 1


# ------------------------------------------------------------------ 15. deployment roll-off ties (§3.2)


def test_deployment_roll_off_ties_are_rerolled_by_every_tied_side(dice):
    """§3.2 "re-roll ties" (core Roll-off): two players tie on 4, both roll again (3 and 5): the 5
    deploys first, the zombies (2) last. The re-roll orders the tied sides only."""
    keys = np.zeros(8)
    dice.script(4, 4, 2, 3, 5)
    setup.deployment_order(np.zeros(1, np.uint64), 0, keys, 2)
    dice.done()
    assert list(keys[:3]) == [1.0, 0.0, 2.0]


def test_deployment_roll_off_reroll_does_not_jump_a_higher_first_roll(dice):
    """Players 0, 1 and the zombies tie on 3 and re-roll together (6, 1, 2); player 2's 4 still
    deploys first: a re-roll orders only the sides it ties."""
    keys = np.zeros(10)
    dice.script(3, 3, 4, 3, 6, 1, 2)
    setup.deployment_order(np.zeros(1, np.uint64), 0, keys, 3)
    dice.done()
    assert list(keys[:4]) == [1.0, 3.0, 0.0, 2.0]


def test_deployment_roll_off_ties_again_roll_again(dice):
    keys = np.zeros(6)
    dice.script(5, 5, 2, 2, 1, 6)  # one player and the zombies: 5, 5, then 2, 2, then 1, 6
    setup.deployment_order(np.zeros(1, np.uint64), 0, keys, 1)
    dice.done()
    assert list(keys[:2]) == [1.0, 0.0]
