"""§8: a Dedicated Transport charged successfully by 30 or more zombies is wrecked at once; each
passenger makes its close combat attacks against the chargers (no strikes back); more than half of
them killed: an emergency disembarkation within 6"; otherwise every passenger rises as a Brute; the
wreck becomes a spawner (issue 32 part 2, step 2 item 3; docs/apocalypse.md "Dedicated Transports in
play"). Hand-fed dice (the ``dice`` fixture): every kernel runs as plain Python."""

from __future__ import annotations

import numpy as np
import pytest
from apocalypse_helpers import RHINO_UNITS, put_unit, rhino_config_file, rhino_with_squad, vehicle_game

import kernels.apocalypse.geometry as geometry
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.w40k.columns import NONE, A, T
from sim.rulesets.apocalypse.config import load_config

CAPTAIN, TACTICAL, RHINO, DEVASTATORS = RHINO_UNITS


@pytest.fixture
def rhino_config(tmp_path):
    return rhino_config_file(tmp_path)


aboard = rhino_with_squad


# ------------------------------------------------------------------ §8: charged by 30 or more zombies


def _charged(rhino_config, n):
    """The zombies' turn, no Overwatch: the Rhino with its squad at (20, 20) and a horde of n 1" away."""
    tb, st, rng = vehicle_game(rhino_config)
    st.gst[0, C.G_ACTIVE] = C.SIDE_ZOMBIES
    tb.policy[0, C.POL_OVERWATCH] = 0
    v, u = aboard(st, tb, 20, 20)
    return tb, st, rng, v, u, _placed_horde(st, tb, v, n)


def _placed_horde(st, tb, v, n):
    """A horde of ``n`` Zombies 1" from the Rhino at (20, 20) (a charge roll of 2 or more reaches it)."""
    h = zombies.new_horde(st, 0, 40, 20, n, 0, tb)
    st.hpos[0, h, 0] = 20 + st.urad[0, v] + 1.0 + st.hrad[0, h]
    return h


@pytest.mark.parametrize("n", [29, 30])
def test_a_charge_of_30_zombies_wrecks_a_transport_at_once(dice, rhino_config, n):
    """§8: 30 or more models: wrecked at once, a spawner in its place (§10); 29: a charge as any other."""
    tb, st, rng = vehicle_game(rhino_config)
    st.gst[0, C.G_ACTIVE] = C.SIDE_ZOMBIES
    tb.policy[0, C.POL_OVERWATCH] = 0
    v = put_unit(st, tb, RHINO, 20, 20)  # empty: no passengers to strike
    h = _placed_horde(st, tb, v, n)
    dice.script(1, 1)  # the charge roll: 2 >= the 1" gap
    assert zombies.charge(rng, 0, st, h, v, tb)
    dice.done()
    wrecked = n >= 30
    assert (st.wounds[0, v, 0] == 0) == wrecked and units.unit_alive(st, 0, v) != wrecked
    assert st.pres[0, 0, C.PR_HORDE_WRECKS] == int(wrecked) and st.pres[0, 0, C.PR_WRECK_SPAWNERS] == int(wrecked)
    assert st.hst[0, h, C.HS_LOCKED] == int(not wrecked)


def test_passengers_who_kill_more_than_half_the_chargers_get_out_within_6(dice, monkeypatch, rhino_config):
    tb, st, rng, v, u, h = _charged(rhino_config, 30)
    monkeypatch.setattr(zombies, "passengers_strike", lambda rng, g, st, u, h, tb: 16)  # ceil(30 / 2) + 1
    dice.script(1, 1)
    zombies.charge(rng, 0, st, h, v, tb)
    assert st.ust[0, u, C.US_EMBARKED] == 0 and units.models_alive(st, 0, u) == 10
    ru, rv = st.urad[0, u], tb.prm[C.P_BASE_R]  # the wreck is gone: its disc was one model's
    g = geometry.gap(st.upos[0, u, 0], st.upos[0, u, 1], ru, st.upos[0, v, 0], st.upos[0, v, 1], rv)
    assert g == pytest.approx(max(0.0, 6.0 - 2 * ru))  # every model within 6" of the wreck
    assert st.pres[0, 0, C.PR_ZKILLED] == 16 and st.pres[0, 0, C.PR_PASSENGERS_LOST] == 0


def test_passengers_who_kill_half_or_fewer_all_rise_as_brutes(dice, monkeypatch, rhino_config):
    tb, st, rng, v, u, h = _charged(rhino_config, 30)
    monkeypatch.setattr(zombies, "passengers_strike", lambda rng, g, st, u, h, tb: 15)  # half: not more
    dice.script(1, 1)
    zombies.charge(rng, 0, st, h, v, tb)
    assert not units.unit_exists(st, 0, u) and st.hst[0, h, C.HS_B] == 10
    assert st.pres[0, 0, C.PR_PASSENGERS_LOST] == 10 and st.pres[0, 0, C.PR_BRUTES] == 10


def test_each_passenger_strikes_the_chargers_with_its_attacks(dice, monkeypatch, rhino_config):
    """§8: every marine's close combat attacks (``melee_choice``: its Attacks, +1 for a second close
    combat weapon) at the horde, one strike a model; the zombies do not strike back."""
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 20, 20)
    h = _placed_horde(st, tb, v, 30)
    st.stats[0, u, 0, A] = 3  # one model with three Attacks: each model strikes with its own
    t = tb.zstats[C.ZK_ZOMBIE, T]
    expected = [zombies.melee_choice(st, 0, u, m, t, NONE, tb)[1] for m in range(10)]
    calls = []
    real = zombies.strike_horde

    def record(rng, g, n, spec, st, h, cover, precise, tb, out):
        calls.append(n)
        return real(rng, g, n, spec, st, h, cover, precise, tb, out)

    monkeypatch.setattr(zombies, "strike_horde", record)
    dice.script(*([1] * sum(expected)))  # every attack misses
    assert zombies.passengers_strike(rng, 0, st, u, h, tb) == 0
    dice.done()
    assert calls == expected and 3 in expected and (st.wounds[0, u, :10] == 1).all()


def test_passengers_killed_by_an_explosion_count_as_lost(dice, rhino_config):
    import kernels.apocalypse.combat as combat

    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 10, 10)
    st.minfo[0, v, 0, C.MI_VSTATUS] |= C.VST_EXPLODED
    st.wounds[0, v, 0] = 0
    dice.script(*([4, 1] * 3 + [3] * 7))  # 3 wounded, saves failed; 7 not wounded
    combat.release_passengers(rng, 0, st, v, tb)
    dice.done()
    assert st.pres[0, 0, C.PR_PASSENGERS_LOST] == 3


def test_the_transport_columns_come_only_with_a_transport(rhino_config):
    from pathlib import Path

    from sim.rulesets.apocalypse.results import TRANSPORT_COLUMNS, results_frame

    walkers = Path(__file__).resolve().parents[2] / "examples" / "apocalypse" / "vehicles" / "helbrute.toml"
    with_rhino = results_frame(load_config(rhino_config), None, 0, np.zeros(0, np.int64))
    with_walker = results_frame(load_config(walkers), None, 0, np.zeros(0, np.int64))
    assert set(TRANSPORT_COLUMNS.values()) <= set(with_rhino.columns)
    assert not set(TRANSPORT_COLUMNS.values()) & set(with_walker.columns) and "hull_points_lost" in with_walker
    doc = (walkers.parents[3] / "docs" / "apocalypse.md").read_text(encoding="utf-8")
    table = doc.split("| transport column | type | meaning |", 1)[1].split("\n\n", 1)[0]
    assert [line.split("|")[1].strip() for line in table.strip().splitlines()[1:]] == list(TRANSPORT_COLUMNS.values())


@pytest.mark.slow
def test_hordes_wreck_transports_in_whole_games(rhino_config):
    """Compiled kernels, check mode: no invariant broken; the counters stay within their bounds."""
    from sim.play import play

    df = play(load_config(rhino_config), 120, seed=4, batch_size=60, check=True)
    assert df.attrs["violations"] == 0
    assert (df.transports_wrecked_by_horde <= df.vehicles_lost).all()
    assert (df.passengers_lost <= df.models_lost).all()
