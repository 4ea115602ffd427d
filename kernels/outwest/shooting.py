"""Shooting (outwest §5, §11): range bands, shooting dice, hits, ammunition, hit location and
effect on humans, the head-shot rule for zombies, group targets, musketoon splash, friendly
fire and zombie gunslingers.

The procedure of §5.1: dice = the weapon's dice at the band + the class's dice + modifiers
(§5.3), at least 1 when the target is in range; every die scoring ``hit_on`` (6) is a hit;
each hit on a human rolls a location D6 and an effect D6 (§5.6), each hit on a zombie one
effect D6 (§5.7). Two or more 1s empty the gun (W4); shotguns, sawn-offs and musketoons are
empty after every Fire (§5.1 step 6).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.outwest.figures import (
    EPS,
    NO_GAP,
    destroy_zombie,
    face_towards,
    gap_between,
    in_cover,
    in_front_half,
    is_human,
    is_zombie,
    knock_down,
    log_event,
    n_humans,
    remove,
    touching,
)
from kernels.outwest.layout import (
    AMMO_CAPACITY,
    BAND_CLOSE,
    BAND_POINT_BLANK,
    CL_SHOOT_DICE,
    EK_AMMO,
    EK_HIT_HUMAN,
    EK_HIT_ZOMBIE,
    EK_RETURN_FIRE,
    EK_SHOT,
    EK_SPLASH,
    FATE_DEAD,
    FF_X,
    FF_Y,
    FI_AMMO0,
    FI_ARMS,
    FI_CLASS,
    FI_DUCKED,
    FI_FLESH,
    FI_GUN0,
    FI_GUNSLINGER,
    FI_KIND,
    FI_LEFT0,
    FI_LEGS,
    FI_NO_MOVE,
    FI_RECOVER,
    FI_SERIOUS,
    FI_STATE,
    GS_SHOTS,
    GUN_EMPTY,
    GUN_JAMMED,
    GUN_READY,
    GUNMAN,
    K_HUMAN,
    LEGEND,
    N_BANDS,
    OUT_OF_RANGE,
    P_AIM_BONUS,
    P_AMMO_MODEL,
    P_AMMO_ONES,
    P_BLAZE_BONUS,
    P_COVER_PENALTY,
    P_FRIENDLY_FIRE,
    P_FX_MUZZLE,
    P_FX_SHOTGUN_FAR,
    P_FX_SHOTGUN_FAR_IN,
    P_FX_SHOTGUN_NEAR,
    P_FX_SHOTGUN_NEAR_IN,
    P_GROUP_HITS_SPREAD,
    P_JAM_ONES,
    P_MOVE_FIRE_PENALTY,
    P_RIFLE_PB_BONUS,
    P_SERIOUS_KILL,
    P_SERIOUS_PENALTY,
    P_SHARE_LEGEND,
    P_SHARE_SHOOTIST,
    P_SHOT_DOWN_DESTROYS,
    P_SPLASH_AUTO,
    P_SPLASH_IN,
    P_Z_DESTROY_ON,
    P_Z_DOWN_ON,
    P_Z_PISTOL_PB,
    P_Z_RIFLE_CLOSE,
    P_Z_RWNN_MODS,
    PR_SHOTS,
    PROFILE_PISTOL,
    PROFILE_RIFLE,
    R_ARM,
    R_DEAD,
    R_DOWN,
    R_FLESH,
    R_GRAZE,
    R_LEG,
    R_NO_MOVE,
    R_OUT,
    R_SERIOUS,
    S_DOWN,
    S_GONE,
    S_OUT,
    S_STANDING,
    SHOOTIST,
    W_BLAZE,
    W_CAPACITY,
    W_MAX_BAND,
    W_MUZZLE,
    W_PISTOL_MODS,
    W_PROFILE,
    W_RELOAD,
    W_ROLLS,
    W_SHOTGUN,
    W_SPLASH,
    W_TWO_HANDS,
)
from kernels.rng import d6

SHOT_NONE, SHOT_DOWN, SHOT_DESTROYED = 0, 1, 2  # a hit on a zombie (§5.7)


# ------------------------------------------------------------------ pure rules (hand-fed dice)


@njit
def band_of(tb, gap):
    """Range band of a gap (§5.2): the first band whose upper edge it does not pass."""
    for b in range(N_BANDS):
        if gap <= tb.band_edges[b] + EPS:
            return b
    return OUT_OF_RANGE


@njit
def gun_reaches(tb, w, band):
    """The gun may fire at this band (§5.2; sawn-offs and musketoons to Close only)."""
    return band < OUT_OF_RANGE and band <= tb.weapons[w, W_MAX_BAND] \
        and tb.band_dice[tb.weapons[w, W_PROFILE], band] >= 0


@njit
def shooting_dice(tb, w, band, cls, aimed, blaze, cover, moved, serious):
    """Dice of one shooting roll (§5.1 step 2, §5.3): band dice + class dice + aim + blaze -
    cover - Move & Fire - serious wounds; at least 1 (the target is in range)."""
    n = tb.band_dice[tb.weapons[w, W_PROFILE], band] + tb.cls[cls, CL_SHOOT_DICE]
    n += aimed * tb.prm[P_AIM_BONUS] + blaze * tb.prm[P_BLAZE_BONUS]
    n -= cover * tb.prm[P_COVER_PENALTY] + moved * tb.prm[P_MOVE_FIRE_PENALTY] + serious * tb.prm[P_SERIOUS_PENALTY]
    return max(1, int(n))


@njit
def ammo_after(tb, ones, blaze):
    """Gun state after a roll with ``ones`` 1s (W4): blazing away, three or more 1s jam it; two
    or more 1s empty it."""
    if blaze and ones >= tb.prm[P_JAM_ONES]:
        return GUN_JAMMED
    if ones >= tb.prm[P_AMMO_ONES]:
        return GUN_EMPTY
    return GUN_READY


@njit
def human_effect_mod(tb, w, gap):
    """Effect-die modifier of a hit on a human (§5.6): muzzle-loader +2; any shotgun at 3" or
    less +1, at more than 6" -1."""
    mod = tb.weapons[w, W_MUZZLE] * tb.prm[P_FX_MUZZLE]
    if tb.weapons[w, W_SHOTGUN]:
        if gap <= tb.prm[P_FX_SHOTGUN_NEAR_IN] + EPS:
            mod += tb.prm[P_FX_SHOTGUN_NEAR]
        elif gap > tb.prm[P_FX_SHOTGUN_FAR_IN] + EPS:
            mod += tb.prm[P_FX_SHOTGUN_FAR]
    return int(mod)


@njit
def zombie_effect_mod(tb, w, band, gap):
    """Effect-die modifier of a hit on a zombie (§5.7): pistols (and shotguns, which count as
    pistols) at Point blank +2, rifles at Close +1 (``P_RIFLE_PB_BONUS``: "short range" read as
    within 6", point blank included); W22: the RWNN modifiers too when set."""
    mod = 0
    if tb.weapons[w, W_PISTOL_MODS] and band == BAND_POINT_BLANK:
        mod += int(tb.prm[P_Z_PISTOL_PB])
    rifle_band = band == BAND_CLOSE or (band == BAND_POINT_BLANK and tb.prm[P_RIFLE_PB_BONUS] != 0)
    if tb.weapons[w, W_PROFILE] == PROFILE_RIFLE and tb.weapons[w, W_PISTOL_MODS] == 0 and rifle_band:
        mod += int(tb.prm[P_Z_RIFLE_CLOSE])
    if tb.prm[P_Z_RWNN_MODS] != 0:
        mod += human_effect_mod(tb, w, gap)
    return mod


@njit
def zombie_effect(tb, die, mod):
    """One hit on a zombie (§5.7): modified 6 or more head shot, 5 knocked over, else nothing."""
    v = die + mod
    if v >= tb.prm[P_Z_DESTROY_ON]:
        return SHOT_DESTROYED
    if v >= tb.prm[P_Z_DOWN_ON]:
        return SHOT_DOWN
    return SHOT_NONE


@njit
def location_result(tb, loc_die, effect_die, mod):
    """The §5.6 result bits of a location die and an effect die (modified, clamped to 1-6)."""
    e = min(6, max(1, effect_die + mod))
    return tb.location[loc_die - 1, e - 1]


@njit
def p_hit(tb, band):
    return (7.0 - tb.hit_on[band]) / 6.0 if tb.hit_on[band] <= 6 else 0.0


@njit
def p_head_shot(tb, mod):
    """Chance that one hit destroys a zombie, for the gun choice."""
    need = tb.prm[P_Z_DESTROY_ON] - mod
    return min(1.0, max(0.0, (7.0 - need) / 6.0))


# ------------------------------------------------------------------ guns of a figure


@njit
def gun_of(st, g, f, slot):
    return st.fi[g, f, FI_GUN0 + slot]


@njit
def gun_loaded(st, g, tb, f, slot):
    """The gun in ``slot`` exists and is ready (capacity model: has shots left)."""
    w = gun_of(st, g, f, slot)
    if w < 0 or st.fi[g, f, FI_AMMO0 + slot] != GUN_READY:
        return False
    return tb.prm[P_AMMO_MODEL] != AMMO_CAPACITY or st.fi[g, f, FI_LEFT0 + slot] > 0


@njit
def arms_allow(st, g, tb, f, w):
    """A useless arm stops two-handed guns (fire and reload); two useless arms stop every gun
    (§5.3, §5.6 "arm useless")."""
    arms = st.fi[g, f, FI_ARMS]
    return arms == 0 or (arms == 1 and tb.weapons[w, W_TWO_HANDS] == 0)


@njit
def gun_usable(st, g, tb, f, slot):
    """A gun a human can fire now (a zombie gunslinger ignores ammunition and arms, §11)."""
    w = gun_of(st, g, f, slot)
    if w < 0:
        return False
    if st.fi[g, f, FI_KIND] != K_HUMAN:
        return True
    return gun_loaded(st, g, tb, f, slot) and arms_allow(st, g, tb, f, w)


@njit
def shooter_class(st, g, f):
    """Zombie gunslingers shoot as Gunmen whatever they were in life (§2.1, §11)."""
    return GUNMAN if st.fi[g, f, FI_KIND] != K_HUMAN else st.fi[g, f, FI_CLASS]


@njit
def expected_kills(st, g, tb, f, w, gap):
    """Expected head shots of one Fire with gun w at this gap (the gun choice, P1)."""
    band = band_of(tb, gap)
    if not gun_reaches(tb, w, band):
        return -1.0
    dice = shooting_dice(tb, w, band, shooter_class(st, g, f), 0, 0, 0, 0, st.fi[g, f, FI_SERIOUS])
    return tb.weapons[w, W_ROLLS] * dice * p_hit(tb, band) * p_head_shot(tb, zombie_effect_mod(tb, w, band, gap))


@njit
def best_gun(st, g, tb, f, gap):
    """The usable gun with the most expected head shots at this gap; -1 when none reaches."""
    best, slot = 0.0, -1
    for k in range(2):
        if gun_usable(st, g, tb, f, k):
            e = expected_kills(st, g, tb, f, gun_of(st, g, f, k), gap)
            if e > best + 1e-12 or (slot < 0 and e >= 0.0):
                best, slot = e, k
    return slot


@njit
def blaze_ok(tb, w):
    """Pistols and rifles may blaze away; shotguns, sawn-offs and musketoons may not (§2.2)."""
    return tb.weapons[w, W_BLAZE] != 0


@njit
def max_band_dice(tb, w):
    """The most dice the gun's profile gives at any band it may fire at (its "best band", P1)."""
    best = 0
    for b in range(N_BANDS):
        if gun_reaches(tb, w, b):
            best = max(best, tb.band_dice[tb.weapons[w, W_PROFILE], b])
    return best


# ------------------------------------------------------------------ hits


@njit
def duck_back(st, g, h):
    if st.fi[g, h, FI_STATE] == S_STANDING or st.fi[g, h, FI_STATE] == S_DOWN:
        st.fi[g, h, FI_DUCKED] = 1


@njit
def apply_wound(st, g, tb, h, bits):
    """Apply §5.6 result bits to human h at once; True when he dies. A figure in cover ducks
    back on a graze or wound; W9: ``P_SERIOUS_KILL`` serious wounds kill (0 = never)."""
    if bits & R_DEAD:
        remove(st, g, h, FATE_DEAD)
        return True
    cover = in_cover(st, g, tb, h)
    if bits & (R_GRAZE | R_FLESH | R_SERIOUS) and cover:
        duck_back(st, g, h)
    if bits & R_FLESH:
        st.fi[g, h, FI_FLESH] += 1
        st.fi[g, h, FI_RECOVER] = 1
        if bits & R_LEG:
            st.fi[g, h, FI_LEGS] += 1
    if bits & R_SERIOUS:
        st.fi[g, h, FI_SERIOUS] += 1
        st.fi[g, h, FI_RECOVER] = 1
        if 0 < tb.prm[P_SERIOUS_KILL] <= st.fi[g, h, FI_SERIOUS]:
            remove(st, g, h, FATE_DEAD)
            return True
    if bits & R_ARM:
        st.fi[g, h, FI_ARMS] = min(2, st.fi[g, h, FI_ARMS] + 1)
    if bits & R_NO_MOVE:
        st.fi[g, h, FI_NO_MOVE] = 1
    if bits & R_OUT:
        st.fi[g, h, FI_STATE] = S_OUT
        st.fi[g, h, FI_RECOVER] = 1
    elif bits & R_DOWN:
        knock_down(st, g, tb, h)
    return False


@njit
def hit_human(st, g, tb, rng, h, mod, by):
    """One hit on human h: location D6, effect D6 + mod (§5.6). True when he dies."""
    loc = d6(rng, g)
    eff = d6(rng, g)
    bits = location_result(tb, loc, eff, mod)
    log_event(st, g, EK_HIT_HUMAN, h, by, loc, eff + mod, bits)
    return apply_wound(st, g, tb, h, bits)


@njit
def hit_zombie(st, g, tb, rng, z, mod, by):
    """One hit on zombie z: one effect D6 (§5.7). Returns SHOT_*. A knocked-over result on a
    zombie already down does nothing more unless ``P_SHOT_DOWN_DESTROYS`` (§7.5's rule)."""
    die = d6(rng, g)
    out = zombie_effect(tb, die, mod)
    log_event(st, g, EK_HIT_ZOMBIE, z, by, die, mod, out)
    if out == SHOT_DESTROYED or (out == SHOT_DOWN and st.fi[g, z, FI_STATE] == S_DOWN
                                 and tb.prm[P_SHOT_DOWN_DESTROYS] != 0):
        destroy_zombie(st, g, tb, z, by)
        return SHOT_DESTROYED
    if out == SHOT_DOWN:
        knock_down(st, g, tb, z)
    return out


@njit
def roll_shooting(rng, g, n, hit_on):
    """Roll n shooting dice: (hits, ones)."""
    hits, ones = 0, 0
    for _ in range(n):
        r = d6(rng, g)
        hits += r >= hit_on
        ones += r == 1
    return hits, ones


# ------------------------------------------------------------------ one shot at a figure


@njit
def hit_figure(st, g, tb, rng, s, t, w, band, gap):
    """One hit from shooter s's gun w on figure t (a zombie or a human)."""
    if st.fi[g, t, FI_KIND] == K_HUMAN:
        hit_human(st, g, tb, rng, t, human_effect_mod(tb, w, gap), s)
    else:
        hit_zombie(st, g, tb, rng, t, zombie_effect_mod(tb, w, band, gap), s)


@njit
def share_radius(tb, cls):
    """Group targets (§5.4): a Shootist shares hits among zombies within 3" of the named one, a
    Legend within 4"; 0 for everyone else."""
    if cls == LEGEND:
        return tb.prm[P_SHARE_LEGEND]
    if cls == SHOOTIST:
        return tb.prm[P_SHARE_SHOOTIST]
    return -1.0


@njit
def group_candidates(st, g, tb, s, t, w, radius):
    """Zombies that may take shared hits: the named t first, then those within ``radius`` of it
    that the gun reaches, nearest to t first (in st.w_list). Returns how many."""
    st.w_list[0] = t
    n = 1
    if radius < 0:
        return n
    for z in range(st.fi.shape[1]):
        if z != t and is_zombie(st, g, z) and gap_between(st, g, tb, z, t) <= radius + EPS \
                and gun_reaches(tb, w, band_of(tb, gap_between(st, g, tb, s, z))):
            key = gap_between(st, g, tb, z, t)
            k = n
            while k > 1 and st.w_key[k - 1] > key:
                st.w_list[k], st.w_key[k] = st.w_list[k - 1], st.w_key[k - 1]
                k -= 1
            st.w_list[k], st.w_key[k] = z, key
            n += 1
    return n


@njit
def next_standing(st, g, n, current):
    """The first candidate after ``current`` still on the table (sequential sharing); -1 none."""
    for k in range(current + 1, n):
        if is_zombie(st, g, st.w_list[k]):
            return k
    return -1


@njit
def resolve_hits(st, g, tb, rng, s, t, w, hits):
    """Put the hits of one roll on t, or share them (§5.4): by default each hit goes to the
    named zombie while it stands, then to the next candidate nearest it (resolved hit by hit);
    with ``P_GROUP_HITS_SPREAD`` one hit per candidate in turn, decided before any is rolled."""
    if st.fi[g, t, FI_KIND] == K_HUMAN:  # a gunslinger's shot at a human
        for _ in range(hits):
            if not is_human(st, g, t):
                break
            gap = gap_between(st, g, tb, s, t)
            hit_figure(st, g, tb, rng, s, t, w, band_of(tb, gap), gap)
        return
    n = group_candidates(st, g, tb, s, t, w, share_radius(tb, shooter_class(st, g, s)))
    k = 0
    for i in range(hits):
        if tb.prm[P_GROUP_HITS_SPREAD] != 0:
            k = i % n
        elif not is_zombie(st, g, st.w_list[k]):
            k = next_standing(st, g, n, k)
            if k < 0:
                return
        z = st.w_list[k]
        if is_zombie(st, g, z):
            gap = gap_between(st, g, tb, s, z)
            hit_figure(st, g, tb, rng, s, z, w, band_of(tb, gap), gap)


@njit
def friendly_victim(st, g, tb, s, t):
    """W26: a human other than the shooter in contact with zombie t (the nearest); -1 none."""
    best, who = NO_GAP, -1
    for h in range(n_humans(tb)):
        if h != s and is_human(st, g, h):
            d = gap_between(st, g, tb, h, t)
            if touching(d) and d < best:
                best, who = d, h
    return who


@njit
def splash(st, g, tb, rng, s, t, w, band):
    """Musketoon splash (§5.5): every other figure within 1" of the target (the shooter aside)
    takes one pistol shooting roll at the same band, no class modifier (W24: or one hit)."""
    for f in range(st.fi.shape[1]):
        if f == s or f == t or st.fi[g, f, FI_STATE] == S_GONE:
            continue
        if gap_between(st, g, tb, f, t) > tb.prm[P_SPLASH_IN] + EPS:
            continue
        if tb.prm[P_SPLASH_AUTO] != 0:
            hits = 1
        else:
            hits, _ = roll_shooting(rng, g, max(1, int(tb.band_dice[PROFILE_PISTOL, band])), tb.hit_on[band])
        log_event(st, g, EK_SPLASH, f, s, hits, 0.0, 0.0)
        for _ in range(hits):
            if st.fi[g, f, FI_STATE] == S_GONE or st.fi[g, f, FI_KIND] == 0:
                break
            gap = gap_between(st, g, tb, s, f)
            hit_figure(st, g, tb, rng, s, f, w, band_of(tb, gap), gap)


@njit
def visible_target(st, g, tb, f):
    """A figure that may be shot at: on the table and not ducked back (§4 Duck back)."""
    return st.fi[g, f, FI_STATE] != S_GONE and st.fi[g, f, FI_DUCKED] == 0


@njit
def retarget(st, g, tb, s, w, was):
    """After the target of a multi-roll gun is destroyed, the nearest other zombie in range in
    front of the shooter takes the remaining rolls; -1 none."""
    best, who = NO_GAP, -1
    for z in range(st.fi.shape[1]):
        if z != was and is_zombie(st, g, z) and in_front_half(st, g, s, st.ff[g, z, FF_X], st.ff[g, z, FF_Y]):
            d = gap_between(st, g, tb, s, z)
            if d < best and gun_reaches(tb, w, band_of(tb, d)):
                best, who = d, z
    return who


@njit
def fire(st, g, tb, rng, s, t, slot, aimed, blaze, moved):
    """A human's Fire (or Move & Fire) at zombie t: the volley, then the target's return fire
    if it is a gunslinger still standing (§11). Returns the hits scored."""
    hits = volley(st, g, tb, rng, s, t, slot, aimed, blaze, moved)
    if st.fi[g, s, FI_KIND] == K_HUMAN and is_zombie(st, g, t) and st.fi[g, t, FI_GUNSLINGER] \
            and st.fi[g, t, FI_STATE] == S_STANDING:
        return_fire(st, g, tb, rng, t, s)
    return hits


@njit
def volley(st, g, tb, rng, s, t, slot, aimed, blaze, moved):
    """Figure s fires the gun in ``slot`` at t: every shooting roll of the gun (§2.2; after the
    target falls, at the nearest other zombie in front), the splash (§5.5) and ammunition.
    Returns the hits scored."""
    w = gun_of(st, g, s, slot)
    human = st.fi[g, s, FI_KIND] == K_HUMAN
    face_towards(st, g, s, st.ff[g, t, FF_X], st.ff[g, t, FF_Y])
    total, target = 0, t
    band0 = band_of(tb, gap_between(st, g, tb, s, t))
    if not gun_reaches(tb, w, band0):
        return 0  # out of the gun's reach: no Fire, the gun stays loaded (the oracle's reading)
    for _ in range(tb.weapons[w, W_ROLLS]):
        if st.fi[g, target, FI_STATE] == S_GONE:
            target = retarget(st, g, tb, s, w, target) if st.fi[g, t, FI_KIND] != K_HUMAN else -1
            if target < 0:
                break
        if not gun_reaches(tb, w, band_of(tb, gap_between(st, g, tb, s, target))):
            break
        total += shooting_roll(st, g, tb, rng, s, target, slot, aimed, blaze, moved)
    if tb.weapons[w, W_SPLASH] and band0 < OUT_OF_RANGE:
        splash(st, g, tb, rng, s, t, w, band0)  # around where the target stood, destroyed or not
    if human and tb.weapons[w, W_RELOAD]:
        st.fi[g, s, FI_AMMO0 + slot] = GUN_EMPTY  # §5.1 step 6
        log_event(st, g, EK_AMMO, s, slot, GUN_EMPTY, 0.0, 0.0)
    return total


@njit
def shooting_roll(st, g, tb, rng, s, target, slot, aimed, blaze, moved):
    """One shooting roll (§5.1): the dice, the hits on the target (or shared, §5.4), each 1 on
    a human in contact with it (W26), and the ammunition of a pistol or rifle. Returns the hits."""
    w = gun_of(st, g, s, slot)
    human = st.fi[g, s, FI_KIND] == K_HUMAN
    band = band_of(tb, gap_between(st, g, tb, s, target))
    cover = int(in_cover(st, g, tb, target))
    n = shooting_dice(tb, w, band, shooter_class(st, g, s), aimed, blaze, cover, moved, st.fi[g, s, FI_SERIOUS])
    hits, ones = roll_shooting(rng, g, n, tb.hit_on[band])
    if human:
        st.pres[g, s, PR_SHOTS] += 1
        st.gs[g, GS_SHOTS] += 1
    log_event(st, g, EK_SHOT, s, target, n, hits, ones)
    victim = friendly_victim(st, g, tb, s, target) if tb.prm[P_FRIENDLY_FIRE] != 0 and human else -1
    resolve_hits(st, g, tb, rng, s, target, w, hits)
    for _ in range(ones if victim >= 0 else 0):
        if is_human(st, g, victim):
            hit_human(st, g, tb, rng, victim, human_effect_mod(tb, w, gap_between(st, g, tb, s, victim)), s)
    if human and tb.weapons[w, W_RELOAD] == 0:
        spent_roll(st, g, tb, s, slot, ones, blaze)
    return hits


@njit
def spent_roll(st, g, tb, s, slot, ones, blaze):
    """Ammunition after one roll of a pistol or rifle (W4): 1s, or one shot of a fixed capacity."""
    if tb.prm[P_AMMO_MODEL] == AMMO_CAPACITY:
        st.fi[g, s, FI_LEFT0 + slot] -= 1
        if st.fi[g, s, FI_LEFT0 + slot] <= 0:
            st.fi[g, s, FI_AMMO0 + slot] = GUN_EMPTY
            log_event(st, g, EK_AMMO, s, slot, GUN_EMPTY, 0.0, 0.0)
        return
    after = ammo_after(tb, ones, blaze)
    if after != GUN_READY:
        st.fi[g, s, FI_AMMO0 + slot] = after
        log_event(st, g, EK_AMMO, s, slot, after, 0.0, 0.0)


@njit
def reload_gun(st, g, tb, f, slot):
    """Reload (§4): the gun is usable again (a fixed capacity is full again)."""
    st.fi[g, f, FI_AMMO0 + slot] = GUN_READY
    st.fi[g, f, FI_LEFT0 + slot] = tb.weapons[gun_of(st, g, f, slot), W_CAPACITY]


# ------------------------------------------------------------------ zombie gunslingers (§11)


@njit
def gunslinger_slot(st, g, tb, z, gap):
    """The gun a gunslinger fires at this gap: the one with more dice there; -1 none reaches."""
    best, slot = -1, -1
    for k in range(2):
        w = gun_of(st, g, z, k)
        if w >= 0:
            band = band_of(tb, gap)
            if gun_reaches(tb, w, band):
                n = tb.band_dice[tb.weapons[w, W_PROFILE], band]
                if n > best:
                    best, slot = n, k
    return slot


@njit
def gunslinger_target(st, g, tb, z):
    """The nearest human a gunslinger can shoot (visible, in range of one of its guns); -1 none."""
    best, who = NO_GAP, -1
    for h in range(n_humans(tb)):
        if is_human(st, g, h) and visible_target(st, g, tb, h):
            d = gap_between(st, g, tb, z, h)
            if d < best and gunslinger_slot(st, g, tb, z, d) >= 0:
                best, who = d, h
    return who


@njit
def return_fire(st, g, tb, rng, z, s):
    """A gunslinger that is shot at and survives turns to face the shooter and shoots back, out
    of sequence (§11), if its gun reaches him and he can be seen."""
    if not is_human(st, g, s) or not visible_target(st, g, tb, s):
        return
    slot = gunslinger_slot(st, g, tb, z, gap_between(st, g, tb, z, s))
    if slot >= 0:
        log_event(st, g, EK_RETURN_FIRE, z, s, 0.0, 0.0, 0.0)
        volley(st, g, tb, rng, z, s, slot, 0, 0, 0)
