"""Options that could change no game are refused in one line, or made to play (issue 27): the
Legendary Fighter multiplier without a Warlord of legendary_cost points (A31), typed psychic noise
(A19: only Force is cast), wreck waves (A14: no vehicles), the caps above T6 / W4 (§2), and the
escort under the rush plan (P3, P10: now live)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from apocalypse_helpers import config, put_unit, table

import kernels.apocalypse.movement as movement
from experiments.sensitivity import chosen_parameters
from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.config import ConfigError, warlord_points
from sim.rulesets.apocalypse.params import parse_params


@pytest.mark.parametrize("field, value, why", [
    ("psychic_noise", "full_type", r"^psychic_noise = 'full_type'; allowed: half_type \(A19: only the Force power"),
    ("wreck_waves", False, r"^wreck_waves = false; allowed: true \(A14: no army here fields a vehicle"),
    ("legendary_multiplier", 2, r"^legendary_multiplier = 2; allowed: 3 unless a Warlord costs legendary_cost = 180 "
                                r"points or more \(A31; the dearest here costs 105\)"),
    ("t_cap", 7, r"^t_cap = 7; allowed: an integer 1-6 \(§2: a model of T7\+ cannot be taken"),
    ("w_cap", 5, r"^w_cap = 5; allowed: an integer 1-4 \(§2: a model of 5\+ W cannot be taken"),
])
def test_inert_options_are_refused_in_one_line(field, value, why):
    with pytest.raises(ConfigError, match=why) as err:
        config(**{field: value})
    assert "\n" not in str(err.value)


def test_legendary_multiplier_plays_once_a_warlord_reaches_legendary_cost():
    cfg = config(legendary_cost=100, legendary_multiplier=2)  # the Captain with a power sword: 105 points
    assert warlord_points(cfg) == [105] and cfg.legendary_live
    assert not config().legendary_live
    names = [p.name for p, _ in chosen_parameters(config())]
    assert "legendary_multiplier" not in names  # sensitivity skips it where it cannot play
    assert "legendary_multiplier" in [p.name for p, _ in chosen_parameters(cfg)]


def test_a_parameter_set_with_an_inert_option_is_refused():
    with pytest.raises(ConfigError, match=r"^params: t_cap = 8; allowed: an integer 1-6"):
        parse_params(config(), {"t_cap": 8})


def test_the_lower_caps_still_play():
    assert config(t_cap=4, w_cap=2).t_cap == 4


def test_escort_plays_under_the_rush_plan(dice):
    """P10 under P3 rush: with ``escort = 1`` a unit that is not the escort heads for its place
    outside the zone while the escort lives and the Graveyard has not sprung (the old rush plan
    went straight for the centre and ignored the field)."""
    _, tb, st, _ = table()
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    escort = put_unit(st, tb, 1, 10, 10)
    other = put_unit(st, tb, 3, 12, 8)
    st.ust[0, escort, C.US_ESCORT] = 1
    hold, x, y = movement.unit_goal(st, 0, other, tb)
    assert not hold and (x, y) == movement.standoff_point(st, 0, other, tb) and (x, y) != (24.0, 24.0)
    assert movement.unit_goal(st, 0, escort, tb) == (False, 24.0, 24.0)
    st.gst[0, C.G_GRAVEYARD] = 1  # sprung: everyone goes in
    assert movement.unit_goal(st, 0, other, tb) == (False, 24.0, 24.0)


def test_the_rush_presets_have_no_escort():
    from sim.rulesets.apocalypse.config import POLICY_PRESETS

    assert POLICY_PRESETS["rush"].escort == 0 and POLICY_PRESETS["stealth"].escort == 0
    assert replace(POLICY_PRESETS["stealth"], escort=1).plan == 0
