"""Compile an `OutwestConfig` into the arrays the kernels read (kernels.outwest.state.Tables)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from kernels.outwest import layout as L
from kernels.outwest.state import Tables
from sim.rulesets.outwest import data as D
from sim.rulesets.outwest.config import CLASSES, EDGES, SCENARIOS, OutwestConfig, OutwestConfigError

PROFILES = ("pistol", "rifle")


def n_figures(config: OutwestConfig) -> int:
    """Humans, then every zombie of every group."""
    return config.n_humans + sum(config.groups)


def weapon_rows() -> tuple[list[str], np.ndarray]:
    """The gun names in table order and int64[n_guns, N_W] (layout W_*)."""
    guns = D.weapons().guns
    rows = np.zeros((len(guns), L.N_W), np.int64)
    for k, gun in enumerate(guns.values()):
        rows[k, L.W_PROFILE] = PROFILES.index(gun.profile)
        rows[k, L.W_ROLLS] = gun.rolls
        rows[k, L.W_RELOAD] = gun.reload_after_fire
        rows[k, L.W_BLAZE] = gun.blaze
        rows[k, L.W_SHOTGUN] = gun.shotgun
        rows[k, L.W_MAX_BAND] = D.BANDS.index(gun.max_band)
        rows[k, L.W_TWO_HANDS] = gun.two_hands
        rows[k, L.W_SPLASH] = gun.splash
        rows[k, L.W_MUZZLE] = gun.muzzle_loader
        rows[k, L.W_CAPACITY] = gun.capacity
        rows[k, L.W_PISTOL_MODS] = gun.pistol_effect
    return list(guns), rows


def band_tables(c: OutwestConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(band edges, dice per profile and band, score to hit per band), W1 either way."""
    edges = np.array([c.band_point_blank_in, c.band_close_in, c.band_medium_in, c.band_long_in, c.band_extreme_in])
    dice = np.array([[c.pistol_dice_point_blank, c.pistol_dice_close, c.pistol_dice_medium, c.pistol_dice_long,
                      c.pistol_dice_extreme],
                     [c.rifle_dice_point_blank, c.rifle_dice_close, c.rifle_dice_medium, c.rifle_dice_long,
                      c.rifle_dice_extreme]], np.int64)
    if c.shooting_mechanic == "class_dice":  # W1: dice by class; the band only sets the score (and the reach)
        dice = np.where(dice >= 0, 0, -1).astype(np.int64)
        hit_on = np.array([c.class_hit_on_point_blank, c.class_hit_on_close, c.class_hit_on_medium,
                           c.class_hit_on_long, c.class_hit_on_extreme], np.int64)
    else:
        hit_on = np.full(L.N_BANDS, c.hit_on, np.int64)
    return edges, dice, hit_on


def class_table(c: OutwestConfig) -> np.ndarray:
    """int64[4, N_CL]: shooting dice (W1's class dice or the class modifier), melee modifier, move dice."""
    if c.shooting_mechanic == "class_dice":
        shoot = (c.class_dice_citizen, c.class_dice_gunman, c.class_dice_shootist, c.class_dice_legend)
    else:
        shoot = (c.shoot_dice_citizen, c.shoot_dice_gunman, c.shoot_dice_shootist, c.shoot_dice_legend)
    melee = (c.melee_mod_citizen, c.melee_mod_gunman, c.melee_mod_shootist, c.melee_mod_legend)
    move = (c.citizen_move_dice, c.move_dice, c.move_dice, c.move_dice)
    return np.array(list(zip(shoot, melee, move)), np.int64)


def posse_table(c: OutwestConfig) -> np.ndarray:
    names, _ = weapon_rows()
    melee = D.weapons().melee
    rows = np.full((c.n_humans, L.N_PO), -1, np.int64)
    for h, p in enumerate(c.players):
        guns = [names.index(gun) for gun in p.guns] + [-1, -1]
        rows[h] = (CLASSES.index(p.cls), guns[0], guns[1], int(melee[p.melee] == "effective"), int(p.horse))
    return rows


def group_table(c: OutwestConfig) -> np.ndarray:
    """int64[G, N_GR]: first figure slot, size, table edge (one group per edge in turn), the gun
    of its starting gunslinger (-1 none, §11)."""
    names, _ = weapon_rows()
    rows = np.zeros((len(c.groups), L.N_GR), np.int64)
    first = c.n_humans
    for q, size in enumerate(c.groups):
        gunslinger = names.index("pistol") if c.zombie_gunslingers and q < c.start_gunslingers else -1
        rows[q] = (first, size, q % 4, gunslinger)
        first += size
    return rows


def terrain_table(c: OutwestConfig) -> np.ndarray:
    try:
        town = D.town(c.town)
    except D.DataError as err:
        raise OutwestConfigError(f"town: {err}") from None
    rows = np.zeros((len(town), L.N_T))
    for k, t in enumerate(town):
        rows[k] = (*t.rect, D.TERRAIN_KINDS.index(t.kind))
    return rows


def parameters(c: OutwestConfig) -> np.ndarray:
    """float64[N_PRM] (layout P_*)."""
    prm = np.zeros(L.N_PRM)
    values = {
        L.P_N_HUMANS: c.n_humans, L.P_N_GROUPS: len(c.groups), L.P_TABLE_W: c.table_width_in,
        L.P_TABLE_H: c.table_height_in, L.P_BASE_R: c.base_radius_in, L.P_START_RADIUS: c.posse_start_radius_in,
        L.P_EDGE_DEPTH: c.zombie_edge_depth_in, L.P_MAX_TURNS: c.max_turns, L.P_SCENARIO: SCENARIOS.index(c.scenario),
        L.P_ESCAPE_NEEDED: c.escape_needed, L.P_ESCAPE_EDGE: EDGES.index(c.escape_edge),
        L.P_GRAVE_EDGE: -1 if c.graveyard == "random" else EDGES.index(c.graveyard),
        L.P_AIM_BONUS: c.aim_bonus, L.P_BLAZE_BONUS: c.blaze_bonus, L.P_COVER_PENALTY: c.cover_penalty,
        L.P_MOVE_FIRE_PENALTY: c.move_fire_penalty, L.P_SERIOUS_PENALTY: c.serious_wound_penalty,
        L.P_AMMO_MODEL: ("ones", "capacity").index(c.ammo_model), L.P_AMMO_ONES: c.out_of_ammo_ones,
        L.P_JAM_ONES: c.jam_ones, L.P_FX_MUZZLE: c.muzzle_loader_effect, L.P_FX_SHOTGUN_NEAR: c.shotgun_near_effect,
        L.P_FX_SHOTGUN_NEAR_IN: c.shotgun_near_in, L.P_FX_SHOTGUN_FAR: c.shotgun_far_effect,
        L.P_FX_SHOTGUN_FAR_IN: c.shotgun_far_in, L.P_Z_PISTOL_PB: c.zombie_pistol_point_blank,
        L.P_Z_RIFLE_CLOSE: c.zombie_rifle_close, L.P_Z_RWNN_MODS: c.zombie_rwnn_effect_mods,
        L.P_Z_DESTROY_ON: c.head_shot_on, L.P_Z_DOWN_ON: c.zombie_knocked_over_on,
        L.P_SHARE_SHOOTIST: c.share_shootist_in, L.P_SHARE_LEGEND: c.share_legend_in, L.P_SPLASH_IN: c.splash_in,
        L.P_SPLASH_AUTO: c.musketoon_splash == "hit", L.P_FRIENDLY_FIRE: c.friendly_fire,
        L.P_CONTACT_SHOOTING: c.contact_shooting, L.P_Z_ATTACK: c.zombie_attack, L.P_Z_DEFEND: c.zombie_defend,
        L.P_EFF_DICE: c.effective_dice, L.P_LIM_DICE: c.limited_dice, L.P_GROUND: c.ground_bonus,
        L.P_PER_BITE: c.per_bite_penalty, L.P_SIDE: c.side_penalty, L.P_BEHIND_DEF: c.behind_defence_penalty,
        L.P_BEHIND_ATT: c.behind_attack_bonus, L.P_FRONT_HALF: math.radians(c.front_half_deg),
        L.P_REAR_HALF: math.radians(c.rear_half_deg), L.P_PUSH_IN: c.push_back_in,
        L.P_Z_RECOVER_ON: c.zombie_recover_on, L.P_FEED_LEAVE_ON: c.feed_leave_on, L.P_FEED_RADIUS: c.feed_radius_in,
        L.P_RECOVER_FRACTION: c.recover_fraction, L.P_SPOOK_RADIUS: c.spook_radius_in, L.P_THROWN_ON: c.thrown_on,
        L.P_HORSE_DICE: c.horse_move_dice, L.P_PLAGUE: c.zombie_plague, L.P_GUNSLINGERS: c.zombie_gunslingers,
        L.P_BITE_LAPSE_ON: c.bite_lapse_on, L.P_PLAGUE_TOTAL: c.plague_test == "total",
        L.P_PLAGUE_WAKE_ON: c.plague_wake_on, L.P_PLAGUE_DIE_ON: c.plague_die_on, L.P_BITE_CAN_KILL: c.bite_can_kill,
        L.P_KO_WAKE_ON: c.knockout_wake_on, L.P_JOKER_WILD: c.joker == "wild",
        L.P_SPEND_OWN: c.spend_timing == "after_character", L.P_ZOMBIES_CLAIM: c.zombies_claim,
        L.P_SERIOUS_KILL: c.serious_wounds_to_die, L.P_FALL_TWO_ONES: c.fall_rule == "two_ones",
        L.P_CITIZEN_NERVE: c.citizen_nerve, L.P_NERVE_RADIUS: c.nerve_radius_in, L.P_NERVE_ON: c.nerve_fails_on,
        L.P_KD_NEEDS_RECOVER: c.knockdown_needs_recover, L.P_CLUB_LONG_GUNS: c.club_long_guns,
        L.P_BITE_DEATH_RISES: c.bite_death_rises, L.P_GROUP_HITS_SPREAD: c.group_hits == "spread",
        L.P_FIX_BREAK_ON: c.fix_broken_on, L.P_FIX_CLEAR_ON: c.fix_cleared_on,
        L.P_BUILDING_DICE: c.building_move_dice, L.P_DENSE_MINUS: c.dense_minus, L.P_LOOSE_MINUS: c.loose_minus,
        L.P_CIT_MOVE_DICE: c.citizen_move_dice, L.P_MOVE_DICE: c.move_dice, L.P_MOVE_FIRE_DICE: c.move_fire_dice,
        L.P_REPOSITION_IN: c.reposition_in, L.P_SINGLE_USES_CARDS: c.single_uses_waiting_cards,
        L.P_TERRAIN_STOPS: c.terrain_stops, L.P_SHOT_DOWN_DESTROYS: c.shot_knockdown_destroys_downed,
        L.P_Z_TARGET_HELPLESS: c.zombie_target == "helpless_first", L.P_BADLY_SERIOUS: c.badly_wounded == "serious",
        L.P_MOVE_AHEAD: c.move_heading == "ahead", L.P_RIFLE_PB_BONUS: c.rifle_close_bonus == "close_and_point_blank",
        L.P_FALLEN_GET_UP: c.fallen_zombies == "get_up_each",
    }
    missing = set(range(L.N_PRM)) - set(values)
    assert not missing, f"parameters without a value: {sorted(missing)}"
    for key, value in values.items():
        prm[key] = float(value)
    return prm


def result_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = D.result_tables()
    return (np.array(t.location, np.int64), np.array([t.zombie_hits["basic"], t.zombie_hits["plague"]], np.int64),
            np.array([t.human_hits["limited"], t.human_hits["effective"]], np.int64))


FIGHT_DICE = 16  # the fight table's dice run 0..FIGHT_DICE (more are read as FIGHT_DICE)


def _binomial_sixes(n: int) -> np.ndarray:
    return np.array([math.comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k) for k in range(n + 1)])


def _hits_fate(p_destroy: float, p_down: float, down: bool) -> np.ndarray:
    """float64[D+1, 2]: after k hits on a zombie (§7.5, rolled one by one: "destroyed" ends it,
    so does "knocked down" on a zombie already on the ground), (destroyed, knocked down)."""
    out = np.zeros((FIGHT_DICE + 1, 2))
    up, lying, gone = (0.0, 1.0, 0.0) if down else (1.0, 0.0, 0.0)
    for k in range(FIGHT_DICE + 1):
        out[k] = gone, (0.0 if down else lying)
        gone += up * p_destroy + lying * (p_destroy + p_down)
        up, lying = up * (1 - p_destroy - p_down), lying * (1 - p_destroy - p_down) + up * p_down
    return out


@lru_cache(maxsize=4)
def fight_table(human_hits: tuple) -> np.ndarray:
    """float64[2, 2, D+1, D+1, 3]: for a human's Fight (§7.3, §7.5), [Limited/Effective, zombie
    on the ground, attack dice, defend dice] -> (zombie destroyed, zombie knocked down, human
    knocked over); the exact odds of sim.rulesets.outwest.exact.human_attack_fate in floats (the
    kernels cannot import sim; tests/outwest/test_outwest_play.py checks them against it)."""
    n = FIGHT_DICE + 1
    sixes = np.zeros((n, n))  # [dice, sixes]
    for k in range(n):
        sixes[k, :k + 1] = _binomial_sixes(k)
    diff = np.subtract.outer(np.arange(n), np.arange(n))  # attacker's sixes - defender's
    out = np.zeros((2, 2, n, n, 3))
    for eff in range(2):
        row = human_hits[eff]
        p_destroy = sum(r == L.HZ_DESTROY for r in row) / 6
        p_down = sum(r == L.HZ_DOWN for r in row) / 6
        for down in range(2):
            fate = _hits_fate(p_destroy, p_down, bool(down))
            for a in range(n):
                for d in range(n):
                    joint = np.outer(sixes[a], sixes[d])  # [attacker's sixes, defender's sixes]
                    out[eff, down, a, d, 2] = joint[diff < 0].sum()
                    hits = np.clip(diff, 0, None)
                    kept = np.where(diff >= 0, joint, 0.0)
                    out[eff, down, a, d, 0] = (kept * fate[hits, 0]).sum()
                    out[eff, down, a, d, 1] = (kept * fate[hits, 1]).sum()
    return out


def compile_tables(config: OutwestConfig) -> Tables:
    """Everything the kernels need to play this configuration."""
    _, weapons = weapon_rows()
    edges, dice, hit_on = band_tables(config)
    location, zombie_hits, human_hits = result_rows()
    return Tables(
        prm=parameters(config), pol=np.array([p.policy.row() for p in config.players], np.float64),
        cls=class_table(config), weapons=weapons, band_edges=edges, band_dice=dice, hit_on=hit_on,
        location=location, zombie_hits=zombie_hits, human_hits=human_hits, terrain=terrain_table(config),
        posse=posse_table(config), groups=group_table(config),
        fight_odds=fight_table(tuple(tuple(int(v) for v in r) for r in human_hits)),
    )
