"""Killing Floor shop (zombie40k §10.11, A41): squads spend kill points on wargear.

The buying policy (docs/mods.md): at the start of its Player Turn the squad goes through its
living models, closest first; each model takes the first item of the wish list (``Tables.shop``,
best first) that it may use, that beats what it holds in that slot, and that the squad can pay
for with its points plus the half-price refund (rounded up) of the item it replaces, which it
sells. One purchase per model per turn. Grenades are bought for the whole squad.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.w40k.columns import MR_PSYKER
from kernels.zombie40k.columns import (
    EK_SHOP,
    SH_COST,
    SH_PSYKER,
    SH_SLOT,
    SH_SQUAD,
    SH_WEAPON,
    US_KF_POINTS,
)
from kernels.zombie40k.units import log_event, on_table


@njit
def sale_price(cost):
    """Items sell back for half their cost, rounded up (zombie40k §10.11)."""
    return (cost + 1) // 2


@njit
def held_rank(st, g, p, m, slot, tb):
    """Wish-list row of the item model m holds in ``slot``; len(shop) for starting kit or none."""
    w = st.gear[g, p, m, slot]
    for k in range(tb.shop.shape[0]):
        if tb.shop[k, SH_WEAPON] == w and tb.shop[k, SH_SLOT] == slot:
            return k
    return tb.shop.shape[0]


@njit
def kf_shop(st, g, p, tb):
    """The squad's shopping at the start of its Player Turn."""
    if tb.shop.shape[0] == 0 or not on_table(st, g, p):
        return
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] > 0:
            _shop_for_model(st, g, p, m, tb)


@njit
def _shop_for_model(st, g, p, m, tb):
    psyker = (st.mflags[g, p, m] & MR_PSYKER) != 0
    n_items = tb.shop.shape[0]
    for k in range(n_items):
        slot = tb.shop[k, SH_SLOT]
        held = held_rank(st, g, p, m, slot, tb)
        if held <= k or (tb.shop[k, SH_PSYKER] != 0 and not psyker):
            continue
        refund = sale_price(tb.shop[held, SH_COST]) if held < n_items else 0
        points = st.ustate[g, p, US_KF_POINTS] + refund
        if points >= tb.shop[k, SH_COST]:
            st.ustate[g, p, US_KF_POINTS] = points - tb.shop[k, SH_COST]
            _hand_out(st, g, p, m, slot, tb.shop[k, SH_WEAPON], tb.shop[k, SH_SQUAD] != 0)
            log_event(st, g, EK_SHOP, p, m, tb.shop[k, SH_WEAPON], tb.shop[k, SH_COST], refund)
            return


@njit
def _hand_out(st, g, p, m, slot, weapon, whole_squad):
    if not whole_squad:
        st.gear[g, p, m, slot] = weapon
        return
    for k in range(st.wounds.shape[2]):
        if st.wounds[g, p, k] > 0:
            st.gear[g, p, k, slot] = weapon
