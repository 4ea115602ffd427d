"""Strong play (issue 26, Out West): the policy fields a competent player would use, each on a
hand-set scene with hand-fed dice, against the spec's P1 (``stand_and_shoot``) on the same scene."""

from __future__ import annotations

import math
from dataclasses import replace

import outwest_helpers as H
import pytest
from outwest_helpers import Arena, config

import kernels.outwest.humans as Hm
from kernels.outwest import layout as L
from sim.rulesets.outwest.config import POLICY_PRESETS, with_policy

GUNMAN, LEGEND, CITIZEN, SHOOTIST = 2, 0, 4, 1  # slots of the default posse
ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures


def policy_config(preset: str = "stand_and_shoot", **fields):
    """The default config on the open table, every man playing ``preset`` with fields changed."""
    return with_policy(config(town="open"), replace(POLICY_PRESETS[preset], **fields))


def gap_to_zombies(a: Arena, f: int) -> float:
    x, y = a.pos(f)
    best = math.inf
    for z in range(a.H, a.st.fi.shape[1]):
        if a.fi(z, L.FI_KIND) == L.K_ZOMBIE and a.fi(z, L.FI_STATE) != L.S_GONE:
            zx, zy = a.pos(z)
            best = min(best, math.hypot(zx - x, zy - y) - 1.0)
    return best


def unarmed(a: Arena, h: int) -> None:
    a.st.fi[0, h, L.FI_AMMO0] = a.st.fi[0, h, L.FI_AMMO1] = L.GUN_BROKEN


# ------------------------------------------------------------------ a: running clear of every zombie


@pytest.mark.parametrize("flee_clear", [0, 1])
def test_a_man_who_runs_keeps_clear_of_every_zombie_not_only_the_nearest(ow_dice, flee_clear):
    """A zombie 2" west, another 5" east: straight away from the nearest (P1) runs him into the
    second; the clear heading (north or south) leaves him more than 6" from both."""
    a = Arena(policy_config(flee_clear=flee_clear))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    unarmed(a, GUNMAN)
    a.put(a.zombie(0), 15.0, 18.0)
    a.put(a.zombie(1), 24.0, 18.0)
    ow_dice.script(4, 4, 4)
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, True)  # he must move away (a failed nerve test)
    ow_dice.done()
    if flee_clear:
        assert gap_to_zombies(a, GUNMAN) > 6.0
    else:
        assert gap_to_zombies(a, GUNMAN) == pytest.approx(0.0, abs=1e-5)  # P1: into the second zombie


# ------------------------------------------------------------------ b: targets by what a hit is worth


def bunch_scene(a: Arena) -> tuple[int, int]:
    """The Legend at the centre, one zombie 3" away, a bunch of three 11-13" away."""
    a.put(LEGEND, 18.0, 18.0, 0.0)
    near = a.put(a.zombie(0), 22.0, 18.0)
    bunch = a.put(a.zombie(1), 18.0, 30.0)
    a.put(a.zombie(2), 19.0, 31.0)
    a.put(a.zombie(3), 17.0, 31.5)
    return near, bunch


@pytest.mark.parametrize("target_value", [0, 1])
def test_a_legend_names_the_zombie_near_him_over_a_distant_bunch(ow_nojit, target_value):
    a = Arena(policy_config(target_value=target_value))
    near, bunch = bunch_scene(a)
    t = Hm.choose_target(a.st, 0, a.tb, LEGEND, False)
    assert t == (near if target_value else bunch)  # P2 names the bunch


def test_a_zombie_touching_a_man_outranks_a_nearer_one_that_is_not(ow_nojit):
    a = Arena(policy_config(target_value=1))
    a.put(LEGEND, 18.0, 18.0, 0.0)
    a.put(CITIZEN, 26.0, 18.0, 0.0)
    grappling = a.put(a.zombie(0), 27.0, 18.0)  # touching the Citizen, 8" from the Legend
    a.put(a.zombie(1), 18.0, 13.0)  # 4" from the Legend, nobody in reach... but 4" < 6": able to charge
    a.put(a.zombie(2), 5.0, 5.0)
    assert Hm.choose_target(a.st, 0, a.tb, LEGEND, False) == grappling


def test_fire_odds_are_the_exact_odds_of_one_fire():
    """The kernel's odds of one Fire against exact.shot_fate (Legend, pistol, point blank and
    close; Gunman, rifle at medium)."""
    from outwest_helpers import _py

    from sim.rulesets.outwest.exact import shot_fate

    cfg = policy_config()
    a = Arena(cfg)
    a.put(LEGEND, 18.0, 18.0, 0.0)
    a.put(GUNMAN, 5.0, 5.0, 0.0)
    z = a.put(a.zombie(0), 20.5, 18.0)  # gap 1.5: point blank
    for gap, h, cls, gun in ((1.5, LEGEND, "legend", "pistol"), (4.0, LEGEND, "legend", "pistol"),
                             (9.0, GUNMAN, "gunman", "rifle")):
        a.put(z, a.pos(h)[0] + 1.0 + gap, a.pos(h)[1])
        a.st.fi[0, h, L.FI_GUN1] = -1
        a.st.fi[0, h, L.FI_GUN0] = list(__import__("sim.rulesets.outwest.compile", fromlist=["x"])
                                        .weapon_rows()[0]).index(gun)
        kill, stop = _py(Hm.fire_odds)(a.st, 0, a.tb, h, z, gap)
        fate = shot_fate(cfg, gun, gap, cls)
        exact_kill = sum(p for (zf, _), p in fate.items() if zf == "destroyed")
        exact_stop = exact_kill + sum(p for (zf, _), p in fate.items() if zf == "knocked over")
        assert kill == pytest.approx(float(exact_kill), abs=1e-12)
        assert stop == pytest.approx(float(exact_stop), abs=1e-12)


# ------------------------------------------------------------------ c, d: in base contact


@pytest.mark.parametrize("standing_first", [0, 1])
def test_in_contact_he_shoots_the_standing_zombie_not_the_one_on_the_ground(ow_dice, standing_first):
    """A Gunman touched by a zombie lying on the ground and by a standing one: P1 shoots the one
    he would fight (on the ground); contact_standing shoots the one that attacks him."""
    a = Arena(policy_config(contact_standing=standing_first))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    lying = a.put(a.zombie(0), 19.0, 18.0, math.pi, L.S_DOWN)
    standing = a.put(a.zombie(1), 17.0, 18.0, 0.0)  # behind him
    ow_dice.script(2, 2, 2, 2, 2)  # pistol at point blank blazing away (two zombies near): 5 dice, no hit
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)
    ow_dice.done()
    facing = a.st.ff[0, GUNMAN, L.FF_FACING]
    shot = standing if standing_first else lying
    assert facing == pytest.approx(math.atan2(a.pos(shot)[1] - 18.0, a.pos(shot)[0] - 18.0))


def test_the_fight_odds_are_the_exact_odds(ow_nojit):
    from sim.rulesets.outwest.exact import Fighter, human_attack_fate, melee_dice

    cfg = policy_config()
    a = Arena(cfg)
    for arc, down in (("front", False), ("rear", False), ("front", True)):
        a.put(LEGEND, 18.0, 18.0, 0.0)
        dx = {"front": 1.0, "rear": -1.0}[arc]
        # the zombie faces the Legend (front) or away from him (he stands behind it)
        z = a.put(a.zombie(0), 18.0 + dx, 18.0, math.pi if dx > 0 else math.pi, L.S_DOWN if down else L.S_STANDING)
        zarc = "front" if arc == "front" else "rear"
        att, dfd = melee_dice(cfg, Fighter(zombie=False, effective=True, cls="legend"), Fighter(on_ground=down), zarc)
        fate = human_attack_fate(cfg, att, dfd, True, down)
        kill, over = Hm.fight_odds(a.st, 0, a.tb, LEGEND, z)
        assert kill == pytest.approx(float(fate["destroyed"]), abs=1e-12)
        assert over == pytest.approx(float(fate["human knocked over"]), abs=1e-12)


@pytest.mark.parametrize("contact_odds", [0, 1])
def test_the_legend_fires_his_pistol_at_point_blank_rather_than_fight_with_his_sabre(ow_dice, contact_odds):
    """Legend touching a standing zombie in front: sabre 16.3% to destroy (26.4% knocked over),
    pistol at point blank 35.3% (exact.py): by the odds he fires."""
    a = Arena(policy_config(contact_odds=contact_odds, contact_standing=1))
    a.put(LEGEND, 18.0, 18.0, 0.0)
    a.put(a.zombie(0), 19.0, 18.0, math.pi)
    if contact_odds:
        ow_dice.script(2, 2, 2, 2, 2)  # pistol 3 + Legend 2 = 5 dice, no hit
    else:
        ow_dice.script(*([2] * 9))  # sabre 3 + Legend 2 = 5 attack dice, zombie 4 defend dice
    Hm.act(a.st, 0, a.tb, a.rng, LEGEND, False)
    ow_dice.done()
    assert a.st.pres[0, LEGEND, L.PR_SHOTS] == contact_odds


def test_by_the_odds_he_fights_a_zombie_on_the_ground_from_behind(ow_dice):
    """Against a zombie lying on the ground, seen from behind, the sabre gets +3 and +2 dice, the
    zombie -2, and a knock-down destroys it: by the odds the Legend fights it."""
    a = Arena(policy_config(contact_odds=1))
    a.put(LEGEND, 18.0, 18.0, 0.0)
    z = a.put(a.zombie(0), 19.0, 18.0, 0.0, L.S_DOWN)  # facing away from him
    kill_f, over = Hm.fight_odds(a.st, 0, a.tb, LEGEND, z)
    kill_s, _ = Hm.fire_odds(a.st, 0, a.tb, LEGEND, z, 0.0)
    assert kill_f - 0.5 * over > kill_s
    ow_dice.script(*([2] * 12))  # 3 + 2 + 3 + 2 = 10 attack dice, 4 - 2 = 2 defend dice
    Hm.act(a.st, 0, a.tb, a.rng, LEGEND, False)
    ow_dice.done()
    assert a.st.pres[0, LEGEND, L.PR_SHOTS] == 0


# ------------------------------------------------------------------ e: action cards spent when they help


@pytest.mark.parametrize("spend_when", [0, 3])
def test_a_held_card_is_spent_on_a_man_with_a_shot_in_his_best_band(ow_dice, spend_when):
    """The posse holds the Gunman card; no zombie has reached anyone. P5 (spend_when 0) keeps it;
    spend_when 3 spends it on the Gunman, who has a zombie 4" away (a pistol's best band)."""
    import kernels.outwest.turn as T

    a = Arena(policy_config(spend_when=spend_when))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    a.put(a.zombie(0), 23.0, 18.0, math.pi)
    a.st.gs[0, L.GS_HELD] = 1 << L.GUNMAN
    if spend_when:
        ow_dice.script(2, 2)  # the rifle's 2 dice at close range (+1 to the effect: his best gun there)
    T.spend_cards(a.st, 0, a.tb, a.rng, False)
    ow_dice.done()
    assert a.st.pres[0, GUNMAN, L.PR_SHOTS] == (1 if spend_when else 0)
    assert a.st.gs[0, L.GS_HELD] == (0 if spend_when else 1 << L.GUNMAN)


def test_a_held_card_is_kept_when_no_free_action_would_help(ow_dice):
    import kernels.outwest.turn as T

    a = Arena(policy_config(spend_when=3))
    a.put(GUNMAN, 5.0, 5.0, 0.0)
    a.put(a.zombie(0), 31.0, 31.0, math.pi)  # out of range of both his guns
    a.st.gs[0, L.GS_HELD] = 1 << L.GUNMAN
    T.spend_cards(a.st, 0, a.tb, a.rng, False)
    ow_dice.done()
    assert a.st.gs[0, L.GS_HELD] == 1 << L.GUNMAN


# ------------------------------------------------------------------ f: turning to face the zombies


@pytest.mark.parametrize("face", [0, 1])
def test_with_nothing_better_to_do_he_turns_to_face_a_zombie_behind_him(ow_dice, face):
    a = Arena(policy_config(face_zombies=face, aim_idle=0, keep_away_in=0.0))
    a.put(GUNMAN, 18.0, 18.0, 0.0)  # facing east, at the goal
    unarmed(a, GUNMAN)
    a.put(a.zombie(0), 13.0, 18.0, 0.0)  # 4" behind him, standing
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)
    ow_dice.done()
    facing = a.st.ff[0, GUNMAN, L.FF_FACING]
    assert abs(facing) == pytest.approx(math.pi if face else 0.0)


# ------------------------------------------------------------------ g: reloading and fixing guns


@pytest.mark.parametrize("chores", [0, 1])
def test_with_nothing_better_to_do_he_reloads_even_with_a_zombie_near(ow_dice, chores):
    """The Citizen's shotgun is empty and a zombie stands 2.5" away (P1 reloads only with none
    within 3"): with chores he reloads rather than aim with an empty gun."""
    a = Arena(policy_config(chores=chores, keep_away_in=0.0))
    a.put(CITIZEN, 18.0, 18.0, 0.0)
    a.st.fi[0, CITIZEN, L.FI_AMMO0] = L.GUN_EMPTY
    a.put(a.zombie(0), 21.5, 18.0, math.pi)
    Hm.act(a.st, 0, a.tb, a.rng, CITIZEN, False)
    ow_dice.done()
    assert a.fi(CITIZEN, L.FI_AMMO0) == (L.GUN_READY if chores else L.GUN_EMPTY)


@pytest.mark.parametrize("chores", [0, 1])
def test_with_nothing_better_to_do_he_fixes_a_jammed_gun_though_another_is_ready(ow_dice, chores):
    """The Shootist's pistol is jammed, his rifle ready, the only zombie 20" away (the rifle's
    extreme range, 1 die: no Fire in P1's best band; nothing to aim at that would stay)."""
    a = Arena(policy_config(chores=chores, aim_idle=0, fire_fraction=1.0))
    a.put(SHOOTIST, 18.0, 18.0, 0.0)
    a.st.fi[0, SHOOTIST, L.FI_AMMO0] = L.GUN_JAMMED
    a.put(a.zombie(0), 18.0, 18.0 - 21.0 + 0.0, 0.0)
    if chores:
        ow_dice.script(5)  # Fix gun: cleared
    else:
        ow_dice.script(2, 2)  # idle: a Fire at anything in range (the rifle, 1 + 1 Shootist die)
    Hm.act(a.st, 0, a.tb, a.rng, SHOOTIST, False)
    ow_dice.done()
    assert a.fi(SHOOTIST, L.FI_AMMO0) == (L.GUN_READY if chores else L.GUN_JAMMED)


# ------------------------------------------------------------------ the default


def test_the_default_policy_is_veteran_and_the_specs_presets_stay_reachable():
    from sim.rulesets.outwest.config import DEFAULT_POLICY, OutwestConfig, config_from_dict

    assert DEFAULT_POLICY == "veteran"
    assert all(p.policy == POLICY_PRESETS["veteran"] for p in OutwestConfig().players)
    spec = config_from_dict({"policy": "stand_and_shoot"})
    assert all(p.policy == POLICY_PRESETS["stand_and_shoot"] for p in spec.players)
    p1 = POLICY_PRESETS["stand_and_shoot"]
    assert (p1.flee_clear, p1.target_value, p1.contact_standing, p1.contact_odds, p1.face_zombies, p1.chores,
            p1.spend_when) == (0, 0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize("chores", [0, 1])
def test_with_no_zombie_near_he_fixes_a_jammed_gun_though_another_is_ready(ow_dice, chores):
    """P1 fixes a jammed gun only when no other gun is ready; with chores, whenever no zombie is
    within reload_safe_in (3"), before a Fire at a zombie 10" away."""
    a = Arena(policy_config("fighting_retreat", chores=chores))
    a.put(SHOOTIST, 18.0, 18.0, 0.0)
    a.st.fi[0, SHOOTIST, L.FI_AMMO0] = L.GUN_JAMMED
    a.put(a.zombie(0), 29.0, 18.0, math.pi)  # gap 10: medium range, rifle 2 + 1 dice
    if chores:
        ow_dice.script(6)  # Fix gun: cleared
    else:
        ow_dice.script(2, 2, 2)  # the rifle's Fire
    Hm.act(a.st, 0, a.tb, a.rng, SHOOTIST, False)
    ow_dice.done()
    assert a.fi(SHOOTIST, L.FI_AMMO0) == (L.GUN_READY if chores else L.GUN_JAMMED)


def test_the_gunfighters_preset_moves_and_fires(ow_dice):
    """`gunfighters` (advance_fire): a Legend away from the town centre, a zombie at long range
    (a pistol's 1 die, under half its best 3): he advances with Move & Fire - 2D6", then a shot
    at -1 die (move_fire_dice, move_fire_penalty are live)."""
    a = Arena(policy_config("gunfighters"))
    a.put(LEGEND, 4.0, 18.0, 0.0)  # 14" west of the centre, facing east
    z = a.put(a.zombie(0), 14.0, 33.5, 0.0)  # 17.4" away to the north-east: long range for his pistols
    ow_dice.script(2, 2)  # Move & Fire: 2D6 = 4" east (toward the goal)
    ow_dice.script(3, 3)  # the shot: long 1 + Legend 2 - 1 (moved) = 2 dice, no hit
    Hm.act(a.st, 0, a.tb, a.rng, LEGEND, False)
    ow_dice.done()
    assert a.pos(LEGEND) == pytest.approx((8.0, 18.0))
    assert a.st.pres[0, LEGEND, L.PR_SHOTS] == 1 and a.fi(z, L.FI_STATE) == L.S_STANDING
