"""Random-legal play (issue 26): the baseline that says what the heuristics of humans.py are worth.

A character whose policy has ``POL_DECISIONS`` = ``DECIDE_RANDOM`` still takes the actions the
rules force (humans.forced_action: Recover, Get up, a failed nerve test's flight), then draws one
action uniformly among the kinds legal for him now (§4), and that action's choices uniformly:

- Reposition: any heading, 0-2", ending with any facing (not for a man who may not move, §5.6, or
  must be carried, §9);
- Move: any heading (only within his front arc with ``P_MOVE_AHEAD``, W11); the distance he means
  to go is drawn up to the most his dice could give, and he stops there or at the end of his roll
  (a Citizen moves his whole roll, §2.1); Move & Fire the same on 2D6, then a shot at a zombie in
  front; never in contact with a zombie (W25);
- Fire: a zombie a usable gun reaches (in contact with a zombie: only one touching him, at point
  blank, and only with ``P_CONTACT_SHOOTING``, W25; a man who may not turn: in front), one of the
  guns that reach it, and blazing away or not where the gun may (§5.3: not with an aimed shot);
- Aim at such a zombie; Reload an empty gun his arms can load; Fix a jammed gun; Fight a zombie
  touching him; Carry a comrade in contact who must be carried (§9), on any heading; Duck back;
  Mount a loose horse within 3", or Dismount (§10).

Every draw comes from the game's own stream ``rng[g]`` (kernels.rng), so game i still depends only
on (seed, i); a policy with ``DECIDE_HEURISTIC`` never reaches this module and draws nothing more.
"""

from __future__ import annotations

import math

from kernels.jit import njit
from kernels.outwest.deck import WILD_BIT, random_below
from kernels.outwest.figures import (
    EPS,
    gap_between,
    gap_to_point,
    in_front_half,
    is_conscious,
    is_human,
    is_zombie,
    log_event,
    n_humans,
    touching,
    zombies_touching,
)
from kernels.outwest.humans import (
    activate,
    activation_start,
    aim_valid,
    badly_wounded,
    base_move_dice,
    carry_along,
    dismount,
    do_aim,
    fire_gun,
    fire_move,
    fix_gun,
    forced_action,
    mount,
    move_along,
    move_dice,
    walk,
)
from kernels.outwest.layout import (
    A_DUCK_BACK,
    A_FIGHT,
    A_FIX_GUN,
    A_MOVE,
    A_RELOAD,
    A_REPOSITION,
    DECIDE_HEURISTIC,
    EK_ACTION,
    FF_FACING,
    FF_HORSE_X,
    FF_HORSE_Y,
    FF_X,
    FF_Y,
    FI_AMMO0,
    FI_CLASS,
    FI_DUCKED,
    FI_HORSE,
    FI_NO_MOVE,
    FI_STATE,
    GS_HELD,
    GUN_EMPTY,
    GUN_JAMMED,
    HORSE_LOOSE,
    HORSE_RIDDEN,
    P_CONTACT_SHOOTING,
    P_FRONT_HALF,
    P_MOVE_AHEAD,
    P_MOVE_FIRE_DICE,
    P_REPOSITION_IN,
    POL_DECISIONS,
    S_OUT,
)
from kernels.outwest.melee import human_attacks
from kernels.outwest.shooting import arms_allow, band_of, blaze_ok, gun_of, gun_reaches, gun_usable, reload_gun
from kernels.rng import uniform

# the kinds of action a random player draws among (§4), in a fixed order
(R_REPOSITION, R_MOVE, R_MOVE_FIRE, R_FIRE, R_AIM, R_RELOAD, R_FIX, R_FIGHT, R_CARRY, R_DUCK, R_MOUNT,
 R_DISMOUNT) = range(12)
N_KINDS = 12
MOUNT_IN = 3.0  # §4 Mount: within 3" of the horse


@njit
def activate_player(st, g, tb, rng, h):
    """One activation of human h (§3.2, §13) by his policy: the heuristic (humans.activate) or
    random-legal play."""
    if tb.pol[h, POL_DECISIONS] == DECIDE_HEURISTIC:
        activate(st, g, tb, rng, h)
        return
    acts, flee = activation_start(st, g, tb, rng, h)
    if acts and not forced_action(st, g, tb, rng, h, flee):
        random_action(st, g, tb, rng, h)


@njit
def random_action(st, g, tb, rng, h):
    """One action of a kind drawn uniformly among those legal for h now (none: he does nothing;
    never, as a man may always Duck back)."""
    kind = draw_kind(st, g, tb, rng, h)
    if kind >= 0:
        perform(st, g, tb, rng, h, kind)


@njit
def draw_kind(st, g, tb, rng, h):
    """A kind of action (R_*) drawn uniformly among those legal for h now; -1 none."""
    return pick(st, g, tb, rng, h, OF_KINDS)


# ------------------------------------------------------------------ drawing one of a set

OF_KINDS, OF_TARGETS, OF_AIMS, OF_FRONT, OF_TOUCHING, OF_CARRIED = range(6)  # the sets pick draws from


@njit
def member(st, g, tb, h, of, i):
    """Item i (a kind of action, or a figure slot) is in the set ``of`` for h."""
    if of == OF_KINDS:
        return i < N_KINDS and legal(st, g, tb, h, i)
    return i < st.fi.shape[1] and figure_member(st, g, tb, h, of, i)


@njit
def any_figure(st, g, tb, h, of):
    """The set ``of`` of figures is not empty (legal's test: no recursion through member)."""
    for f in range(st.fi.shape[1]):
        if figure_member(st, g, tb, h, of, f):
            return True
    return False


@njit
def figure_member(st, g, tb, h, of, i):
    if of == OF_TOUCHING:
        return is_zombie(st, g, i) and touching(gap_between(st, g, tb, h, i))
    if of == OF_CARRIED:
        return i < n_humans(tb) and carried(st, g, tb, h, i)
    return may_shoot(st, g, tb, h, i, of == OF_AIMS, of == OF_FRONT)


@njit
def count(st, g, tb, h, of):
    n = 0
    for i in range(max(N_KINDS, st.fi.shape[1])):
        n += member(st, g, tb, h, of, i)
    return n


@njit
def pick(st, g, tb, rng, h, of):
    """One member of the set ``of`` drawn uniformly; -1 when it is empty (no draw then)."""
    n = count(st, g, tb, h, of)
    if n == 0:
        return -1
    k = random_below(rng, g, n)
    for i in range(max(N_KINDS, st.fi.shape[1])):
        if member(st, g, tb, h, of, i):
            if k == 0:
                return i
            k -= 1
    return -1


@njit
def legal(st, g, tb, h, kind):
    """May h take an action of this kind now (§4, §5.3, §9, §10, W25)?"""
    walks = st.fi[g, h, FI_NO_MOVE] == 0 and not badly_wounded(st, g, tb, h)
    contact = zombies_touching(st, g, tb, h) > 0
    if kind == R_REPOSITION:
        return walks
    if kind == R_MOVE or kind == R_CARRY:
        if move_dice(st, g, tb, h, base_move_dice(st, g, tb, h)) <= 0:
            return False
        return kind == R_MOVE or any_figure(st, g, tb, h, OF_CARRIED)
    if kind == R_MOVE_FIRE:
        return not contact and move_dice(st, g, tb, h, int(tb.prm[P_MOVE_FIRE_DICE])) > 0 and any_usable(st, g, tb, h)
    if kind == R_FIRE:
        return any_figure(st, g, tb, h, OF_TARGETS)
    if kind == R_AIM:
        return any_figure(st, g, tb, h, OF_AIMS)
    if kind == R_RELOAD:
        return empty_guns(st, g, tb, h) > 0
    if kind == R_FIX:
        return needs(st, g, tb, h, 0, R_FIX) or needs(st, g, tb, h, 1, R_FIX)
    if kind == R_FIGHT:
        return contact
    if kind == R_DUCK:
        return st.fi[g, h, FI_DUCKED] == 0
    if kind == R_MOUNT:
        return st.fi[g, h, FI_HORSE] == HORSE_LOOSE and \
            gap_to_point(st, g, tb, h, st.ff[g, h, FF_HORSE_X], st.ff[g, h, FF_HORSE_Y]) <= MOUNT_IN + EPS
    return st.fi[g, h, FI_HORSE] == HORSE_RIDDEN  # R_DISMOUNT


@njit
def perform(st, g, tb, rng, h, kind):
    if kind == R_REPOSITION:
        reposition(st, g, tb, rng, h)
    elif kind == R_MOVE:
        n = move_dice(st, g, tb, h, base_move_dice(st, g, tb, h))
        ux, uy = heading(st, g, tb, rng, h)
        move_along(st, g, tb, rng, h, ux, uy, 6.0 * n * uniform(rng, g), A_MOVE)
    elif kind == R_MOVE_FIRE:
        move_and_shoot(st, g, tb, rng, h)
    elif kind == R_FIRE:
        shoot(st, g, tb, rng, h, pick(st, g, tb, rng, h, OF_TARGETS), 0)
    elif kind == R_AIM:
        do_aim(st, g, tb, h, pick(st, g, tb, rng, h, OF_AIMS))
    elif kind == R_RELOAD or kind == R_FIX:
        chore(st, g, tb, rng, h, kind)
    elif kind == R_FIGHT:
        z = pick(st, g, tb, rng, h, OF_TOUCHING)
        log_event(st, g, EK_ACTION, h, z, A_FIGHT, 0.0, 0.0)
        human_attacks(st, g, tb, rng, h, z)
    elif kind == R_CARRY:
        c = pick(st, g, tb, rng, h, OF_CARRIED)
        ux, uy = any_heading(rng, g)
        carry_along(st, g, tb, rng, h, c, ux, uy)
    elif kind == R_DUCK:
        log_event(st, g, EK_ACTION, h, -1, A_DUCK_BACK, 0.0, 0.0)
        st.fi[g, h, FI_DUCKED] = 1
    elif kind == R_MOUNT:
        mount(st, g, tb, h)
    else:
        dismount(st, g, tb, h)


# ------------------------------------------------------------------ headings and moves


@njit
def any_heading(rng, g):
    a = 2.0 * math.pi * uniform(rng, g)
    return math.cos(a), math.sin(a)


@njit
def heading(st, g, tb, rng, h):
    """A Move's heading: any (§4: he picks it and ends facing it); with ``P_MOVE_AHEAD`` one
    within his front arc (W11)."""
    if tb.prm[P_MOVE_AHEAD] == 0:
        return any_heading(rng, g)
    a = st.ff[g, h, FF_FACING] + (2.0 * uniform(rng, g) - 1.0) * tb.prm[P_FRONT_HALF]
    return math.cos(a), math.sin(a)


@njit
def reposition(st, g, tb, rng, h):
    """Reposition (§4): up to 2" in any direction, ending with any facing."""
    log_event(st, g, EK_ACTION, h, -1, A_REPOSITION, 0.0, 0.0)
    ux, uy = any_heading(rng, g)
    walk(st, g, tb, h, ux, uy, tb.prm[P_REPOSITION_IN] * uniform(rng, g))
    facing = 2.0 * math.pi * uniform(rng, g)
    if is_human(st, g, h):
        st.ff[g, h, FF_FACING] = facing


@njit
def move_and_shoot(st, g, tb, rng, h):
    """Move & Fire (§4): the move (humans.fire_move), then a shot at a zombie in front, -1 die."""
    n = move_dice(st, g, tb, h, int(tb.prm[P_MOVE_FIRE_DICE]))
    ux, uy = heading(st, g, tb, rng, h)
    if not fire_move(st, g, tb, rng, h, ux, uy, 6.0 * n * uniform(rng, g)):
        return
    t = pick(st, g, tb, rng, h, OF_FRONT)
    if t >= 0:
        shoot(st, g, tb, rng, h, t, 1)


# ------------------------------------------------------------------ shooting


@njit
def any_usable(st, g, tb, h):
    return gun_usable(st, g, tb, h, 0) or gun_usable(st, g, tb, h, 1)


@njit
def reaches(st, g, tb, h, slot, gap):
    return gun_usable(st, g, tb, h, slot) and gun_reaches(tb, gun_of(st, g, h, slot), band_of(tb, gap))


@njit
def may_shoot(st, g, tb, h, z, aim, front):
    """Zombie z is a target for h: a usable gun reaches it; he must turn to it and may not
    (§5.6) or it is for the shot of Move & Fire (``front``): in his front half; shooting (not
    ``aim``) while a zombie touches him: only one touching him, with ``P_CONTACT_SHOOTING`` (W25)."""
    if not is_zombie(st, g, z):
        return False
    gap = gap_between(st, g, tb, h, z)
    if not aim and zombies_touching(st, g, tb, h) > 0 and (tb.prm[P_CONTACT_SHOOTING] == 0 or not touching(gap)):
        return False
    if (front or st.fi[g, h, FI_NO_MOVE] != 0) and not in_front_half(st, g, h, st.ff[g, z, FF_X], st.ff[g, z, FF_Y]):
        return False
    return reaches(st, g, tb, h, 0, gap) or reaches(st, g, tb, h, 1, gap)


@njit
def shoot(st, g, tb, rng, h, t, moved):
    """Fire at t (§4) with a gun drawn among those that reach it, blazing away or not at random
    where the gun may (§5.3: pistols and rifles, not with an aimed shot)."""
    gap = gap_between(st, g, tb, h, t)
    both = reaches(st, g, tb, h, 0, gap) and reaches(st, g, tb, h, 1, gap)
    slot = random_below(rng, g, 2) if both else (0 if reaches(st, g, tb, h, 0, gap) else 1)
    aimed = aim_valid(st, g, h, t)
    blaze = False
    if not aimed and blaze_ok(tb, gun_of(st, g, h, slot)):
        blaze = random_below(rng, g, 2) == 1
    fire_gun(st, g, tb, rng, h, t, slot, aimed, blaze, moved)


# ------------------------------------------------------------------ chores, melee, carrying


@njit
def needs(st, g, tb, h, slot, kind):
    """The gun in ``slot`` may be reloaded (empty, and his arms can load it, §4, §5.3) or fixed
    (jammed, §4 Fix gun)."""
    w = gun_of(st, g, h, slot)
    if w < 0:
        return False
    if kind == R_FIX:
        return st.fi[g, h, FI_AMMO0 + slot] == GUN_JAMMED
    return st.fi[g, h, FI_AMMO0 + slot] == GUN_EMPTY and arms_allow(st, g, tb, h, w)


@njit
def empty_guns(st, g, tb, h):
    return int(needs(st, g, tb, h, 0, R_RELOAD)) + int(needs(st, g, tb, h, 1, R_RELOAD))


@njit
def chore(st, g, tb, rng, h, kind):
    """Reload an empty gun or Fix a jammed one (§4), drawn between his two guns when both need it."""
    first, second = needs(st, g, tb, h, 0, kind), needs(st, g, tb, h, 1, kind)
    slot = random_below(rng, g, 2) if first and second else (0 if first else 1)
    if kind == R_RELOAD:
        log_event(st, g, EK_ACTION, h, slot, A_RELOAD, 0.0, 0.0)
        reload_gun(st, g, tb, h, slot)
        return
    log_event(st, g, EK_ACTION, h, slot, A_FIX_GUN, 0.0, 0.0)
    fix_gun(st, g, tb, rng, h, slot)


@njit
def carried(st, g, tb, h, c):
    """Comrade c, in base contact with h, must be carried (§9: unconscious or badly wounded)."""
    return c != h and is_human(st, g, c) and touching(gap_between(st, g, tb, h, c)) and \
        (st.fi[g, c, FI_STATE] == S_OUT or badly_wounded(st, g, tb, c))


# ------------------------------------------------------------------ held action cards (§3.2)


@njit
def spend_pair(st, g, tb, k):
    """The k-th legal (card bit, character) pair of a random-legal spend: a held class card (or
    the wild Joker, W7) and a conscious character of random-legal policy of at least its class;
    returns (bit, h), or (-1, n) with n the number of pairs when k is past the last."""
    held = st.gs[g, GS_HELD]
    n = 0
    for b in range(WILD_BIT + 1):
        if (held >> b) & 1 == 0:
            continue
        for h in range(n_humans(tb)):
            if tb.pol[h, POL_DECISIONS] != DECIDE_HEURISTIC and is_conscious(st, g, h) and \
                    (b == WILD_BIT or st.fi[g, h, FI_CLASS] >= b):
                if n == k:
                    return b, h
                n += 1
    return -1, n
