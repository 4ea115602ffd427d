"""Hordes (zombie-apocalypse §5, §9): counts per horde, special models, merging, spawning.

A horde's models are ``HS_Z`` plain Zombies, ``HS_J`` Juggernauts (``HS_JH`` of them hurt), the
Brutes and the First Zombie of its special slots (``HS_B``, ``HS_FZ`` count them). Its bonus
``k = floor(n / 10)`` (Resilience, Hordes, First Zombie) rises at once when it grows and falls only
at the end of the phase or Initiative step (``HS_K``). Every spawn batch may give up 3 Zombies per
Juggernaut (§9.1, P2); a batch within 2" of a horde joins it, and hordes within 2" merge (§5, A26).
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    BLIND_NONE,
    EK_HORDE,
    EK_SPAWN,
    G_HELD,
    G_TURN,
    HS_ALIVE,
    HS_B,
    HS_BLIND,
    HS_BLIND_HIT,
    HS_BORN,
    HS_CHARGED,
    HS_FZ,
    HS_J,
    HS_JH,
    HS_K,
    HS_LOCKED,
    HS_Z,
    N_HS,
    P_BASE_R,
    P_BONUS_PER,
    P_EXCHANGE,
    P_EXCHANGE_COST,
    P_FZ_INV,
    P_FZ_STACK,
    P_JUGG_RATIO,
    P_MAX_ZOMBIES,
    P_MERGE,
    P_RES_BEST,
    P_RES_INV,
    P_Z_SPACING,
    R_EXCHANGED,
    R_JUGGERNAUTS,
    R_MAX_HORDE,
    R_OVERFLOW,
    R_SP0,
    SK_BRUTE,
    SK_FIRST,
    SK_NONE,
    ZK_JUGGERNAUT,
    ZK_ZOMBIE,
)
from kernels.apocalypse.geometry import disc_radius, gap
from kernels.apocalypse.trace import log_event
from kernels.jit import njit
from kernels.w40k.columns import I
from kernels.w40k.geometry import norm

# ------------------------------------------------------------------ pure rules


@njit
def horde_bonus(n_models, per):
    """k = one per full 10 models (§5: Hordes, Resilience, First Zombie)."""
    return n_models // per


@njit
def resilience_inv(k, base, best):
    """Resilience: invulnerable 6+ improved by k, never better than ``best`` (A22: 2+)."""
    return max(best, base - k)


@njit
def first_zombie_inv(k, base, best, stack):
    """First Zombie: 5+ improved by k of his horde; with ``stack`` Resilience adds k again (A24)."""
    return max(best, base - k * (2 if stack else 1))


@njit
def juggernaut_bonus(zombies, brutes, juggernauts, ratio):
    """Unstoppable Juggernaut!: at least 1 Juggernaut per 10 Zombies and Brutes (§5)."""
    return juggernauts >= 1 and juggernauts * ratio >= zombies + brutes


@njit
def exchange_juggernauts(batch, zombies, brutes, juggernauts, policy, cost, ratio):
    """Juggernauts to place from a spawn batch of ``batch`` Zombies (§9.1, P2): each costs ``cost``
    Zombies. Policy 0 none, 1 the fewest that keep ``j x 10 >= zombies + brutes`` for the horde the
    batch joins (its counts given), 2 as many as the batch allows."""
    most = batch // cost
    if policy == 0 or most == 0:
        return 0
    if policy == 2:
        return most
    need = zombies + brutes + batch - ratio * juggernauts
    if need <= 0:
        return 0
    # j x ratio >= zombies + brutes + batch - cost x j  <=>  j >= need / (ratio + cost)
    return min(most, -(-need // (ratio + cost)))


# ------------------------------------------------------------------ counts


@njit
def horde_models(st, g, h):
    s = st.hst[g, h]
    return s[HS_Z] + s[HS_J] + s[HS_B] + s[HS_FZ]


@njit
def is_alive(st, g, h):
    return st.hst[g, h, HS_ALIVE] != 0


@njit
def jugg_active(st, g, h, tb):
    s = st.hst[g, h]
    return juggernaut_bonus(s[HS_Z], s[HS_B], s[HS_J], tb.prm[P_JUGG_RATIO])


@njit
def refresh_radius(st, g, h, tb):
    st.hrad[g, h] = disc_radius(horde_models(st, g, h), tb.prm[P_BASE_R], tb.prm[P_Z_SPACING])


@njit
def raise_bonus(st, g, h, tb):
    """Growth counts at once (§5 Resilience: 'effective immediately')."""
    k = horde_bonus(horde_models(st, g, h), int(tb.prm[P_BONUS_PER]))
    if k > st.hst[g, h, HS_K]:
        st.hst[g, h, HS_K] = k


@njit
def settle_bonus(st, g, h, tb):
    """End of a phase or Initiative step: losses lower the bonus (§5)."""
    st.hst[g, h, HS_K] = horde_bonus(horde_models(st, g, h), int(tb.prm[P_BONUS_PER]))


@njit
def settle_all(st, g, tb):
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h):
            settle_bonus(st, g, h, tb)


@njit
def horde_inv(st, g, h, tb):
    return resilience_inv(st.hst[g, h, HS_K], int(tb.prm[P_RES_INV]), int(tb.prm[P_RES_BEST]))


@njit
def fz_inv(st, g, h, tb):
    return first_zombie_inv(st.hst[g, h, HS_K], int(tb.prm[P_FZ_INV]), int(tb.prm[P_RES_BEST]),
                            tb.prm[P_FZ_STACK] != 0)


@njit
def horde_initiative(st, g, h, tb):
    """The horde's majority Initiative: its plain Zombies', unless Juggernauts and specials
    outnumber them."""
    z = st.hst[g, h, HS_Z]
    rest = st.hst[g, h, HS_J] + st.hst[g, h, HS_B] + st.hst[g, h, HS_FZ]
    return tb.zstats[ZK_ZOMBIE, I] if z >= rest else tb.zstats[ZK_JUGGERNAUT, I]


@njit
def horde_blind(st, g, h):
    """Blind in force (core §12): every model of the horde is WS 1 and BS 1."""
    return st.hst[g, h, HS_BLIND] != BLIND_NONE


@njit
def merged_blind(blind_a, blind_b, na, nb):
    """The Blind of a merged horde (A26; core §3 'majority'): the models of the larger horde are the
    majority, so its state holds; of two equal hordes, Blind holds only if both are (a tie takes the
    highest WS)."""
    if na > nb:
        return blind_a
    if nb > na:
        return blind_b
    return min(blind_a, blind_b) if blind_a != BLIND_NONE and blind_b != BLIND_NONE else BLIND_NONE


@njit
def zombies_on_table(st, g):
    total = 0
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h):
            total += horde_models(st, g, h)
    return total


# ------------------------------------------------------------------ slots


@njit
def _free_horde(st, g):
    for h in range(st.hst.shape[1]):
        if st.hst[g, h, HS_ALIVE] == 0:
            return h
    return -1


@njit
def _clear_horde(st, g, h):
    for c in range(N_HS):
        st.hst[g, h, c] = 0
    st.hrad[g, h] = 0.0
    for u in range(st.lock.shape[1]):
        st.lock[g, u, h] = 0


@njit
def remove_if_empty(st, g, h):
    """A horde with no models left is gone: its locks end (its special slots are already free)."""
    if st.hst[g, h, HS_ALIVE] != 0 and horde_models(st, g, h) == 0:
        _clear_horde(st, g, h)
        return True
    return False


@njit
def _nearest_horde(st, g, x, y):
    best, best_d = -1, 1e18
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h):
            d = norm(st.hpos[g, h, 0] - x, st.hpos[g, h, 1] - y)
            if d < best_d:
                best, best_d = h, d
    return best


@njit
def new_horde(st, g, x, y, zombies, juggernauts, tb):
    """A new horde of plain Zombies and Juggernauts at (x, y). With no free slot the models join the
    nearest horde (counted in R_OVERFLOW; size the state with more hordes if it is ever non-zero)."""
    h = _free_horde(st, g)
    if h < 0:
        h = _nearest_horde(st, g, x, y)
        st.res[g, R_OVERFLOW] += 1
        st.hst[g, h, HS_Z] += zombies
        st.hst[g, h, HS_J] += juggernauts
    else:
        _clear_horde(st, g, h)
        st.hst[g, h, HS_ALIVE] = 1
        st.hst[g, h, HS_Z] = zombies
        st.hst[g, h, HS_J] = juggernauts
        st.hst[g, h, HS_BORN] = st.gst[g, G_TURN]
        st.hpos[g, h, 0], st.hpos[g, h, 1] = x, y
    refresh_radius(st, g, h, tb)
    raise_bonus(st, g, h, tb)
    return h


@njit
def free_special(st, g):
    for s in range(st.sh.shape[1]):
        if st.sh[g, s] < 0:
            return s
    return -1


@njit
def add_special(st, g, h, kind, stats, flags, wounds, tb):
    """Put a Brute or the First Zombie into horde h (returns its slot, -1 if none is free; the
    caller gives it its weapons in ``GameState.sgear``)."""
    s = free_special(st, g)
    if s < 0:
        st.res[g, R_OVERFLOW] += 1
        return -1
    st.sh[g, s] = h
    st.skind[g, s] = kind
    st.swounds[g, s] = wounds
    for c in range(stats.shape[0]):
        st.sstats[g, s, c] = stats[c]
    st.sflags[g, s] = flags
    for c in range(st.sgear.shape[2]):
        st.sgear[g, s, c] = -1
    if kind == SK_BRUTE:
        st.hst[g, h, HS_B] += 1
    else:
        st.hst[g, h, HS_FZ] += 1
    refresh_radius(st, g, h, tb)
    raise_bonus(st, g, h, tb)
    return s


@njit
def remove_special(st, g, s):
    h = st.sh[g, s]
    if st.skind[g, s] == SK_BRUTE:
        st.hst[g, h, HS_B] -= 1
    elif st.skind[g, s] == SK_FIRST:
        st.hst[g, h, HS_FZ] -= 1
    st.sh[g, s] = -1
    st.skind[g, s] = SK_NONE
    st.swounds[g, s] = 0


# ------------------------------------------------------------------ merging (§5, A26)


@njit
def _merge_into(st, g, a, b, tb):
    """Horde b joins horde a: counts, special models and locks; the disc sits at the count-weighted
    centre, unless a combat holds one of them where it stands (A26)."""
    na, nb = horde_models(st, g, a), horde_models(st, g, b)
    locked_a, locked_b = st.hst[g, a, HS_LOCKED] > 0, st.hst[g, b, HS_LOCKED] > 0
    if locked_b and not locked_a:
        st.hpos[g, a, 0], st.hpos[g, a, 1] = st.hpos[g, b, 0], st.hpos[g, b, 1]
    elif locked_a == locked_b and na + nb > 0:
        wa = na / (na + nb)
        st.hpos[g, a, 0] = wa * st.hpos[g, a, 0] + (1.0 - wa) * st.hpos[g, b, 0]
        st.hpos[g, a, 1] = wa * st.hpos[g, a, 1] + (1.0 - wa) * st.hpos[g, b, 1]
    for c in (HS_Z, HS_J, HS_JH, HS_B, HS_FZ):
        st.hst[g, a, c] += st.hst[g, b, c]
    st.hst[g, a, HS_K] = max(st.hst[g, a, HS_K], st.hst[g, b, HS_K])
    st.hst[g, a, HS_CHARGED] = max(st.hst[g, a, HS_CHARGED], st.hst[g, b, HS_CHARGED])
    st.hst[g, a, HS_BORN] = min(st.hst[g, a, HS_BORN], st.hst[g, b, HS_BORN])
    st.hst[g, a, HS_BLIND] = merged_blind(st.hst[g, a, HS_BLIND], st.hst[g, b, HS_BLIND], na, nb)
    st.hst[g, a, HS_BLIND_HIT] = max(st.hst[g, a, HS_BLIND_HIT], st.hst[g, b, HS_BLIND_HIT])  # hit models test
    for s in range(st.sh.shape[1]):
        if st.sh[g, s] == b:
            st.sh[g, s] = a
    n_locked = 0
    for u in range(st.lock.shape[1]):
        if st.lock[g, u, b] != 0:
            st.lock[g, u, a] = 1
        n_locked += st.lock[g, u, a]
    _clear_horde(st, g, b)
    st.hst[g, a, HS_LOCKED] = n_locked
    refresh_radius(st, g, a, tb)
    raise_bonus(st, g, a, tb)


@njit
def merge_hordes(st, g, tb):
    """Every pair of hordes within 2" becomes one, transitively (§5 Hordes). Returns merges made."""
    reach = tb.prm[P_MERGE]
    merged = 0
    again = True
    while again:
        again = False
        n = st.hst.shape[1]
        for a in range(n):
            if not is_alive(st, g, a):
                continue
            for b in range(a + 1, n):
                if not is_alive(st, g, b):
                    continue
                if gap(st.hpos[g, a, 0], st.hpos[g, a, 1], st.hrad[g, a],
                       st.hpos[g, b, 0], st.hpos[g, b, 1], st.hrad[g, b]) <= reach:
                    keep, drop = (a, b) if horde_models(st, g, a) >= horde_models(st, g, b) else (b, a)
                    _merge_into(st, g, keep, drop, tb)
                    merged += 1
                    again = True
                    break
    track_largest(st, g)
    return merged


@njit
def track_largest(st, g):
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h):
            st.res[g, R_MAX_HORDE] = max(st.res[g, R_MAX_HORDE], horde_models(st, g, h))


@njit
def _joining_counts(st, g, x, y, r, tb):
    """(zombies, brutes, juggernauts) of the hordes a batch at (x, y) of radius r would join."""
    z = b = j = 0
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h) and gap(x, y, r, st.hpos[g, h, 0], st.hpos[g, h, 1], st.hrad[g, h]) <= tb.prm[P_MERGE]:
            z += st.hst[g, h, HS_Z]
            b += st.hst[g, h, HS_B]
            j += st.hst[g, h, HS_J]
    return z, b, j


# ------------------------------------------------------------------ spawning


@njit
def room_on_table(st, g, count, tb):
    """How many of ``count`` new zombies the optional cap on models allows (A4, A37; 0 = no cap);
    the rest are held back."""
    cap = int(tb.prm[P_MAX_ZOMBIES])
    if cap <= 0:
        return count
    return max(0, min(count, cap - zombies_on_table(st, g)))


@njit
def spawn_batch(st, g, x, y, count, source, exchange, tb, phase):
    """Place a batch of ``count`` Zombies at (x, y) (already a legal spot), with the Juggernaut
    exchange when ``exchange`` (§9.1, P2); ``source`` (SRC_*, or -1 when already counted) is
    credited with the batch. Returns the horde, or -1 when nothing was placed (held back)."""
    if count <= 0:
        return -1
    if source >= 0:  # zombies are counted by source when generated (noise: when made, kernels.apocalypse.noise)
        st.res[g, R_SP0 + source] += count
    placed = room_on_table(st, g, count, tb)
    st.gst[g, G_HELD] += count - placed
    if placed <= 0:
        return -1
    j = 0
    if exchange:
        r = disc_radius(placed, tb.prm[P_BASE_R], tb.prm[P_Z_SPACING])
        z0, b0, j0 = _joining_counts(st, g, x, y, r, tb)
        j = exchange_juggernauts(placed, z0, b0, j0, int(tb.prm[P_EXCHANGE]), int(tb.prm[P_EXCHANGE_COST]),
                                 int(tb.prm[P_JUGG_RATIO]))
    zombies = placed - j * int(tb.prm[P_EXCHANGE_COST])
    h = new_horde(st, g, x, y, zombies, j, tb)
    st.res[g, R_JUGGERNAUTS] += j
    st.res[g, R_EXCHANGED] += placed - zombies - j
    log_event(st, g, phase, EK_SPAWN, source, zombies + j, h, x, y)
    return h


@njit
def log_hordes(st, g, phase):
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h):
            log_event(st, g, phase, EK_HORDE, h, horde_models(st, g, h), st.hst[g, h, HS_J],
                      st.hpos[g, h, 0], st.hpos[g, h, 1])
